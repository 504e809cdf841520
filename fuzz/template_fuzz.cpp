// Catalog templates (`opm alpha render-template`, `opm alpha convert-template`): the input's
// schema picks the template (basic, semver, substitutes), which is rendered with bundles made
// up from each image reference; the basic template also as a bare catalog stream, the input
// converted to the basic and substitutes templates, and read as a composite catalog
// configuration.
#include "template/composite.hpp"
#include "template/template.hpp"

#include <string>
#include <vector>

#include "fuzz_support.hpp"

namespace {

// "quay.io/acme/etcd-bundle:v0.9.4" -> package etcd, version 0.9.4, name etcd.v0.9.4.
opm::catalog::DeclarativeConfig made_up_bundle(const std::string& ref) {
  std::string_view last = ref;
  last.remove_prefix(last.rfind('/') == std::string_view::npos ? 0 : last.rfind('/') + 1);
  auto tag_at = last.find_first_of(":@");
  std::string_view package = last.substr(0, tag_at);
  if (package.ends_with("-bundle")) {
    package.remove_suffix(std::string_view("-bundle").size());
  }
  std::string version = "0.0.0";
  if (tag_at != std::string_view::npos && last[tag_at] == ':') {
    version = last.substr(tag_at + 1);
    if (version.starts_with('v')) {
      version.erase(0, 1);
    }
  }
  opm::catalog::Bundle bundle;
  bundle.package = package;
  bundle.name = std::string(package) + ".v" + version;
  bundle.image = ref;
  bundle.properties.push_back({std::string(opm::catalog::k_prop_package),
                               opm::Json{{"packageName", bundle.package}, {"version", version}}});
  opm::catalog::DeclarativeConfig cfg;
  cfg.bundles.push_back(std::move(bundle));
  return cfg;
}

opm::Result<std::vector<opm::catalog::DeclarativeConfig>>
render_bundles(const std::vector<std::string>& refs) {
  std::vector<opm::catalog::DeclarativeConfig> out;
  out.reserve(refs.size());
  for (const auto& ref : refs) {
    out.push_back(made_up_bundle(ref));
  }
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto input = opm::fuzz::as_text(data, size);
  opm::templates::RenderBundles renderer = render_bundles;
  if (auto type = opm::templates::detect_type(input)) {
    OPM_FUZZ_CHECK(opm::templates::is_type(*type));
    (void)opm::templates::render(*type, input, renderer);
  }
  (void)opm::templates::render_basic(input, renderer);
  for (std::string_view type : {"basic", "substitutes"}) {
    for (auto format : {opm::templates::ConvertFormat::json, opm::templates::ConvertFormat::yaml}) {
      auto converted = opm::templates::convert(input, type, format);
      if (converted) {
        OPM_FUZZ_CHECK(converted->ends_with('\n'));
      }
    }
  }
  (void)opm::templates::read_catalog_config(input);
  return 0;
}
