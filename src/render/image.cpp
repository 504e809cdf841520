#include "render/image.hpp"

#include "bundle/bundle.hpp"
#include "catalog/load.hpp"
#include "registry/tree_path.hpp"
#include "render/render.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <fcntl.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace opm::render {

namespace {

constexpr std::string_view k_configs_label = "operators.operatorframework.io.index.configs.v1";
constexpr std::string_view k_bundle_package_label =
    "operators.operatorframework.io.bundle.package.v1";
constexpr std::string_view k_database_label = "operators.operatorframework.io.index.database.v1";

// A directory under the system temp dir that removes itself, also when rendering fails
// or an interrupt ends the process.
Result<util::TempTree> make_unpack_dir() {
  auto dir = util::TempTree::make(std::filesystem::temp_directory_path(), "render-unpack-");
  if (!dir) {
    return util::fail(Errc::io, "create tempdir: " + dir.error().message());
  }
  return dir;
}

Error type_error(const std::string& ref, const registry::Labels& labels) {
  if (labels.empty()) {
    return Error(Errc::invalid, fmt::format("render {}: image type could not be determined: "
                                            "image has no labels",
                                            util::go_quote(ref)));
  }
  std::string lines;
  for (const auto& [key, value] : labels) {
    lines += fmt::format("\n  {}={}", key, value);
  }
  return Error(Errc::invalid,
               fmt::format("render {}: image type could not be determined, found labels{}",
                           util::go_quote(ref), lines));
}

// The directory or file a label names, resolved inside the unpacked tree: a ".." that climbs
// out of it is refused (upstream joins the label to the directory and reads what it finds).
Result<std::filesystem::path> labelled_path(const std::filesystem::path& root,
                                            std::string_view label, const std::string& value,
                                            const std::string& quoted_ref) {
  util::Fd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.fd < 0) {
    return util::fail(Errc::io, fmt::format("open {}: {}", root.string(), util::errno_text(errno)));
  }
  auto resolved = registry::resolve_in_tree(fd.fd, registry::tree_path_parts(value),
                                            registry::Missing::lexical);
  if (!resolved) {
    return util::fail(Errc::invalid, fmt::format("render {}: label {}={} points outside the image",
                                                 quoted_ref, label, util::go_quote(value)));
  }
  return root / *resolved;
}

// Refuses, before anything is unpacked, the kinds of image the caller does not take, in
// upstream's order of checks.
Result<void> check_allowed(const registry::Labels& labels, const ImageRenderOptions& options) {
  if (!options.allow_sqlite_image && labels.contains(std::string(k_database_label))) {
    return util::fail(Errc::not_allowed, "cannot render sqlite image: not allowed");
  }
  if (!options.allow_catalog_image && labels.contains(std::string(k_configs_label))) {
    return util::fail(Errc::not_allowed, "cannot render declarative config image: not allowed");
  }
  return {};
}

} // namespace

Result<catalog::DeclarativeConfig> render_image(registry::Puller& puller,
                                                const registry::ImageLocation& at,
                                                const ImageRenderOptions& options) {
  const std::string& ref = at.text;
  auto quoted = util::go_quote(ref);
  if (util::interrupted()) {
    return util::fail(Errc::io, fmt::format("render {}: interrupted", quoted));
  }
  auto pulled = puller.pull(at);
  if (!pulled) {
    return std::unexpected(
        std::move(pulled).error().wrap(fmt::format("failed to pull image {}", quoted)));
  }
  // The pull read the config already: its labels need no second look.
  const registry::Labels* labels = &pulled->labels;
  bool bundle = !labels->contains(std::string(k_configs_label)) &&
                labels->contains(std::string(k_bundle_package_label));
  OPM_TRY(check_allowed(*labels, options));
  bool cacheable = bundle && options.allow_bundle_image && options.cache != nullptr;
  if (cacheable) {
    if (auto cached = options.cache->find(pulled->image_digest, ref)) {
      return std::move(*cached);
    }
  }
  auto dir = OPM_TRY(make_unpack_dir());
  if (auto unpacked = puller.unpack(at, dir.path()); !unpacked) {
    return std::unexpected(
        std::move(unpacked).error().wrap(fmt::format("failed to unpack image {}", quoted)));
  }
  if (auto it = labels->find(std::string(k_configs_label)); it != labels->end()) {
    return load_catalog_dir(
        OPM_TRY(labelled_path(dir.path(), k_configs_label, it->second, quoted)));
  }
  if (bundle) {
    if (!options.allow_bundle_image) {
      return util::fail(Errc::not_allowed, "cannot render bundle image: not allowed");
    }
    catalog::DeclarativeConfig cfg;
    cfg.bundles.push_back(OPM_TRY(bundle::load_dir(dir.path(), ref)));
    if (cacheable) {
      options.cache->store(pulled->image_digest, ref, cfg);
    }
    return cfg;
  }
  if (auto it = labels->find(std::string(k_database_label)); it != labels->end()) {
    if (options.on_sqlite) {
      options.on_sqlite();
    }
    return render_sqlite_file(
        OPM_TRY(labelled_path(dir.path(), k_database_label, it->second, quoted)));
  }
  return std::unexpected(type_error(ref, *labels));
}

} // namespace opm::render
