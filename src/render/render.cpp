#include "render/render.hpp"

#include "catalog/load.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <sys/stat.h>

namespace opm::render {

namespace {

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

Result<catalog::DeclarativeConfig> render_one(const std::string& ref, const Options& options) {
  struct stat st {};
  if (::stat(ref.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      return util::fail(Errc::invalid,
                        fmt::format("ref {} is not a directory: not allowed", util::go_quote(ref)));
    }
    if (is_dir(ref + "/manifests") && is_dir(ref + "/metadata")) {
      return util::fail(Errc::invalid, "rendering bundle directories is not supported yet");
    }
    return catalog::load_dir(ref);
  }
  if (options.render_image) {
    return options.render_image(ref);
  }
  return util::fail(Errc::invalid, "rendering image references is not supported yet");
}

} // namespace

void normalize_for_output(catalog::DeclarativeConfig& cfg) {
  for (auto& b : cfg.bundles) {
    std::stable_partition(b.properties.begin(), b.properties.end(), [](const catalog::Property& p) {
      return p.type != catalog::k_prop_bundle_object && p.type != catalog::k_prop_csv_metadata;
    });
    std::stable_sort(b.related_images.begin(), b.related_images.end(),
                     [](const catalog::RelatedImage& x, const catalog::RelatedImage& y) {
                       return x.image < y.image;
                     });
  }
}

Result<catalog::DeclarativeConfig> render(const std::vector<std::string>& refs,
                                          const Options& options) {
  catalog::DeclarativeConfig all;
  for (const auto& ref : refs) {
    auto cfg = render_one(ref, options);
    if (!cfg) {
      return std::unexpected(
          std::move(cfg).error().wrap(fmt::format("render reference {}", util::go_quote(ref))));
    }
    normalize_for_output(*cfg);
    all.merge(std::move(*cfg));
  }
  return all;
}

} // namespace opm::render
