#include "cmd/alpha_bundle_image.hpp"

#include "cmd/image_build.hpp"
#include "cmd/registry_options.hpp"
#include "image/rootfs_image.hpp"
#include "util/fs.hpp"
#include "util/process.hpp"

#include <fmt/format.h>

#include <spawn.h>

#include <cerrno>
#include <sys/wait.h>

extern char** environ;

namespace opm::cmd::alpha_bundle {

namespace {

namespace fs = std::filesystem;

// Go's %#v of a []string, as upstream's exec error names the command.
std::string go_string_slice(const std::vector<std::string>& argv) {
  std::string out = "[]string{";
  for (std::size_t i = 0; i < argv.size(); ++i) {
    out += (i == 0 ? "\"" : ", \"") + argv[i] + "\"";
  }
  return out + "}";
}

// Runs an engine as upstream's ExecuteCommand does: its output becomes ours, a failure
// names the command.
Result<void> run_engine(Context& ctx, const std::vector<std::string>& argv) {
  auto failed = [&argv](const std::string& why) {
    return util::fail(Errc::io, fmt::format("Failed to exec {}: {}", go_string_slice(argv), why));
  };
  auto exe = util::find_on_path(argv[0]);
  if (!exe) {
    return failed(fmt::format("exec: \"{}\": executable file not found in $PATH", argv[0]));
  }
  auto done = util::run_process({.exe = *exe, .argv = argv, .capture_stderr = false});
  if (!done) {
    return failed(fmt::format("fork/exec {}: {}", *exe, done.error().message()));
  }
  ctx.out << done->out;
  ctx.out.flush();
  if (!done->succeeded()) {
    return failed(done->exit_text());
  }
  return {};
}

// The image's root: manifests/ and metadata/ as COPY in bundle.Dockerfile makes them.
Result<void> stage_rootfs(const bundle::GeneratedBundle& generated, const fs::path& rootfs) {
  for (const auto& [from, name] : {std::pair{generated.manifests_dir, "manifests"},
                                   std::pair{generated.metadata_dir, "metadata"}}) {
    std::error_code ec;
    fs::create_directories(rootfs / name, ec);
    if (!ec) {
      fs::copy(from, rootfs / name, fs::copy_options::recursive | fs::copy_options::copy_symlinks,
               ec);
    }
    if (ec) {
      return util::fail(Errc::io, fmt::format("copy {}: {}", from.string(), ec.message()));
    }
  }
  return {};
}

Result<void> build_without_tool(Context& ctx, const bundle::GeneratedBundle& generated,
                                const std::string& tag, const std::string& base_image) {
  if (base_image != "scratch") {
    return util::fail(Errc::usage, fmt::format("--base-image {} cannot be used with "
                                               "--image-builder none, which builds on scratch",
                                               base_image));
  }
  image::RootfsImage build;
  for (const auto& [key, value] : bundle::label_pairs(generated.labels)) {
    build.labels[key] = value;
  }
  build.created = OPM_TRY(source_date_epoch(ctx));
  build.created_by = "COPY manifests /manifests/ and metadata /metadata/";
  build.comment = "opm alpha bundle build";
  registry::Options options = registry_options(ctx);
  options.log =
      stderr_log(ctx, ctx.global.debug ? registry::LogLevel::debug : registry::LogLevel::warn);
  return build_and_deliver(
      ctx, options, "opm-bundle-build-", tag, build.created,
      [&](registry::Puller& images, const fs::path& work) -> Result<image::BuiltImage> {
        build.rootfs = work / "rootfs";
        OPM_TRY(stage_rootfs(generated, build.rootfs));
        return image::build_rootfs_image(build, images, work);
      });
}

} // namespace

Result<void> build_bundle_image(Context& ctx, const bundle::GeneratedBundle& generated,
                                const std::string& tag, const std::string& builder,
                                const std::string& base_image) {
  if (builder == "none") {
    return build_without_tool(ctx, generated, tag, base_image);
  }
  if (builder == "docker" || builder == "podman") {
    return run_engine(ctx, {builder, "build", "-f", "bundle.Dockerfile", "-t", tag, "."});
  }
  if (builder == "buildah") {
    return run_engine(
        ctx, {builder, "bud", "--format=docker", "-f", "bundle.Dockerfile", "-t", tag, "."});
  }
  return util::fail(Errc::invalid, fmt::format("{} is not supported image builder", builder));
}

} // namespace opm::cmd::alpha_bundle
