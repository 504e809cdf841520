#include "image/rootfs_image.hpp"

#include "image/detail/assembly.hpp"
#include "registry/layer_writer.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace opm::image {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

std::uint32_t mode_of(const fs::path& path) {
  std::error_code ec;
  return static_cast<std::uint32_t>(fs::symlink_status(path, ec).permissions()) & 07777;
}

// The entries of every top-level directory, file and symlink of the root, in byte order.
Result<std::vector<registry::LayerEntry>> rootfs_entries(const fs::path& rootfs) {
  std::error_code ec;
  std::vector<fs::directory_entry> top;
  for (fs::directory_iterator it(rootfs, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    top.push_back(*it);
  }
  if (ec) {
    return util::fail(Errc::io, fmt::format("reading {}: {}", rootfs.string(), ec.message()));
  }
  std::ranges::sort(top, [](const fs::directory_entry& a, const fs::directory_entry& b) {
    return a.path().filename().string() < b.path().filename().string();
  });
  std::vector<registry::LayerEntry> out;
  for (const auto& e : top) {
    std::string name = e.path().filename().string();
    auto st = e.symlink_status(ec);
    if (fs::is_directory(st)) {
      auto below = OPM_TRY(registry::tree_entries(e.path(), name, mode_of(e.path())));
      out.insert(out.end(), below.begin(), below.end());
      continue;
    }
    registry::LayerEntry entry;
    entry.name = name;
    if (fs::is_symlink(st)) {
      entry.type = registry::LayerEntry::Type::symlink;
      entry.mode = 0777;
      entry.link = fs::read_symlink(e.path(), ec).string();
    } else if (fs::is_regular_file(st)) {
      entry.mode = mode_of(e.path());
      entry.source = e.path();
    } else {
      return util::fail(Errc::invalid,
                        fmt::format("{}: not a file, directory or symlink", e.path().string()));
    }
    out.push_back(std::move(entry));
  }
  return out;
}

std::string rootfs_config(const RootfsImage& build, Json config, const detail::NewLayer& layer) {
  std::vector<Json> history = {
      detail::history_entry(build.created, build.created_by, build.comment, false)};
  Json& c = detail::prepare_config(config, build.created, history, {layer});
  for (const auto& [key, value] : build.labels) {
    c["Labels"][key] = value;
  }
  if (!build.env.empty()) {
    c["Env"] = build.env;
  }
  if (!build.entrypoint.empty()) {
    c["Entrypoint"] = build.entrypoint;
  }
  if (!build.user.empty()) {
    c["User"] = build.user;
  }
  if (!build.working_dir.empty()) {
    c["WorkingDir"] = build.working_dir;
  }
  return config.dump();
}

} // namespace

Result<BuiltImage> build_rootfs_image(const RootfsImage& build, registry::Puller& images,
                                      const fs::path& work) {
  std::optional<registry::Reference> canonical;
  auto bases = OPM_TRY(detail::read_bases("scratch", build.platform, images, canonical));
  auto entries = OPM_TRY(rootfs_entries(build.rootfs));
  fs::path file = work / "rootfs.tar.gz";
  auto written =
      OPM_TRY(registry::write_layer(entries, build.created, file, bases.front().flavor.layer()));
  detail::NewLayer layer{written, file};
  return detail::assemble_all(std::move(bases), {layer}, [&](Json config) {
    return rootfs_config(build, std::move(config), layer);
  });
}

} // namespace opm::image
