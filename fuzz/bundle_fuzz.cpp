// registry+v1 bundle directories turned into an olm.bundle, as `opm render` does for a bundle
// image or directory. The input is up to three files separated by lines "#%%": the CSV
// (manifests/csv.yaml), the annotations (metadata/annotations.yaml, a valid default when
// absent) and another manifest such as a CRD (manifests/crd.yaml). The olm.bundle must be
// writable as a catalog.
#include "bundle/bundle.hpp"
#include "catalog/write.hpp"

#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

namespace {

constexpr std::string_view k_separator = "\n#%%\n";
constexpr std::string_view k_default_annotations =
    "annotations:\n"
    "  operators.operatorframework.io.bundle.package.v1: fuzz\n"
    "  operators.operatorframework.io.bundle.channels.v1: stable,beta\n"
    "  operators.operatorframework.io.bundle.channel.default.v1: stable\n";

std::vector<std::string_view> split_files(std::string_view text) {
  std::vector<std::string_view> files;
  for (;;) {
    auto at = text.find(k_separator);
    files.push_back(text.substr(0, at));
    if (at == std::string_view::npos || files.size() == 3) {
      return files;
    }
    text.remove_prefix(at + k_separator.size());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto files = split_files(opm::fuzz::as_text(data, size));
  opm::fuzz::TempDir dir;
  opm::fuzz::write_file(dir.path() / "manifests" / "csv.yaml", files[0]);
  opm::fuzz::write_file(dir.path() / "metadata" / "annotations.yaml",
                        files.size() > 1 ? files[1] : k_default_annotations);
  if (files.size() > 2) {
    opm::fuzz::write_file(dir.path() / "manifests" / "crd.yaml", files[2]);
  }

  auto parsed = opm::bundle::parse_dir(dir.path());
  if (!parsed) {
    return 0;
  }
  (void)opm::bundle::template_version(*parsed);
  auto bundle = opm::bundle::to_declcfg(*parsed, "quay.io/acme/fuzz-bundle:v1");
  auto moved = opm::bundle::to_declcfg(std::move(*parsed), "quay.io/acme/fuzz-bundle:v1");
  OPM_FUZZ_CHECK(bundle.has_value() == moved.has_value());
  if (!bundle) {
    return 0;
  }
  OPM_FUZZ_CHECK(bundle->name == moved->name && bundle->package == moved->package);
  OPM_FUZZ_CHECK(bundle->csv_index.has_value());

  opm::catalog::DeclarativeConfig cfg;
  cfg.bundles.push_back(std::move(*bundle));
  for (auto format : {opm::catalog::Format::json, opm::catalog::Format::yaml}) {
    std::ostringstream out;
    opm::catalog::write(cfg, format, out);
  }
  return 0;
}
