#include "bundle/bundle.hpp"

#include "bundle/manifests.hpp"
#include "bundle/metadata.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <set>

namespace opm::bundle {

namespace {

constexpr std::string_view k_properties_annotation = "olm.properties";

// Properties upstream derives from the bundle: the annotations' package, the CSV's
// olm.properties annotation, one olm.gvk per provided API.
Result<std::vector<RawProperty>> derived_properties(const Parsed& b) {
  std::vector<RawProperty> derived;
  if (auto it = b.csv.annotations.find(std::string(k_properties_annotation));
      it != b.csv.annotations.end()) {
    derived = annotation_properties(it->second);
  }
  if (!b.package.empty()) {
    auto version = OPM_TRY(csv_version(b.csv));
    auto release = OPM_TRY(csv_release(b.csv));
    derived.insert(derived.begin(), RawProperty{std::string(catalog::k_prop_package),
                                                package_value(b.package, version, release)});
  }
  for (const auto& api : b.provided) {
    derived.push_back(
        {std::string(catalog::k_prop_gvk), gvk_value(api.group, api.kind, api.version)});
  }
  return property_set(std::move(derived));
}

Result<std::vector<catalog::RelatedImage>> related_images(const Parsed& b, std::string_view image) {
  auto images = OPM_TRY(csv_related_images(b.csv));
  std::set<std::string, std::less<>> listed;
  for (const auto& ri : images) {
    listed.insert(ri.image);
  }
  // Upstream does not record the bundle image as listed, so an operator image equal to it
  // appears a second time.
  if (!image.empty() && !listed.contains(image)) {
    images.push_back({"", std::string(image)});
  }
  for (const auto& op : OPM_TRY(csv_operator_images(b.csv))) {
    if (listed.insert(op).second) {
      images.push_back({"", op});
    }
  }
  return images;
}

Result<catalog::Bundle> build(const Parsed& b, std::string_view image,
                              std::vector<std::string> objects) {
  auto version = csv_version(b.csv);
  auto release = csv_release(b.csv);
  auto required = required_apis(b.csv);
  PropertyInputs inputs{b.properties, b.dependencies, objects,    b.package,
                        version,      release,        b.provided, required};
  auto properties = bundle_properties(inputs);
  if (!properties) {
    return std::unexpected(
        std::move(properties)
            .error()
            .wrap(fmt::format("get properties for bundle {}", util::go_quote(b.name))));
  }
  auto images = related_images(b, image);
  if (!images) {
    return std::unexpected(std::move(images).error().wrap(
        fmt::format("get related images for bundle {}", util::go_quote(b.name))));
  }
  catalog::Bundle out;
  out.name = b.name;
  out.package = b.package;
  out.image = std::string(image);
  out.properties = std::move(*properties);
  out.related_images = std::move(*images);
  out.csv_index = b.csv_index;
  out.objects = std::move(objects);
  return out;
}

} // namespace

Result<Parsed> parse_dir(const std::filesystem::path& dir) {
  Parsed b;
  auto manifests = OPM_TRY(read_manifests(dir / "manifests"));
  b.csv = std::move(manifests.csv);
  b.csv_index = manifests.csv_index;
  b.object_json = std::move(manifests.object_json);
  b.name = b.csv.name;

  auto check = [&]() -> Result<void> {
    b.provided = OPM_TRY(provided_apis(manifests.crd_apis, b.csv));
    return check_owned_crds(b.csv, b.provided);
  }();
  if (!check) {
    return std::unexpected(std::move(check).error().wrap(
        fmt::format("error checking provided apis in bundle {}", b.name)));
  }

  auto metadata = OPM_TRY(read_metadata(dir / "metadata"));
  b.package = std::move(metadata.annotations.package);
  b.channels = split_channels(metadata.annotations.channels);
  b.default_channel = std::move(metadata.annotations.default_channel);
  b.dependencies = std::move(metadata.dependencies);
  b.dependencies_file = !b.dependencies.empty();
  b.properties_file = !metadata.properties.empty();

  auto derived = derived_properties(b);
  if (!derived) {
    return std::unexpected(std::move(derived).error().wrap("failed to derive properties"));
  }
  b.properties = std::move(metadata.properties);
  b.properties.insert(b.properties.end(), std::make_move_iterator(derived->begin()),
                      std::make_move_iterator(derived->end()));
  b.properties = property_set(std::move(b.properties));
  return b;
}

Result<catalog::Bundle> to_declcfg(const Parsed& parsed, std::string_view image) {
  return build(parsed, image, parsed.object_json);
}

Result<catalog::Bundle> to_declcfg(Parsed&& parsed, std::string_view image) {
  auto objects = std::move(parsed.object_json);
  return build(parsed, image, std::move(objects));
}

Result<catalog::Bundle> load_dir(const std::filesystem::path& dir, std::string_view image) {
  return to_declcfg(OPM_TRY(parse_dir(dir)), image);
}

Result<std::string> template_version(const Parsed& parsed) {
  return first_package_version(parsed.properties);
}

} // namespace opm::bundle
