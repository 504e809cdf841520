#include "cmd/alpha_bundle_image.hpp"

#include "cmd/image_build.hpp"
#include "cmd/registry_options.hpp"
#include "image/rootfs_image.hpp"
#include "util/fs.hpp"

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

// Runs argv with our stdin, stdout and stderr; upstream's ExecuteCommand errors.
Result<void> run_attached(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) {
    args.push_back(const_cast<char*>(a.c_str()));
  }
  args.push_back(nullptr);
  pid_t pid = 0;
  int spawned = ::posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (spawned != 0) {
    std::string why = spawned == ENOENT
                          ? fmt::format("exec: \"{}\": executable file not found in $PATH", argv[0])
                          : fmt::format("fork/exec {}: {}", argv[0], util::errno_text(spawned));
    return util::fail(Errc::io, fmt::format("Failed to exec {}: {}", go_string_slice(argv), why));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    return {};
  }
  std::string why = WIFEXITED(status) ? fmt::format("exit status {}", WEXITSTATUS(status))
                                      : fmt::format("signal: {}", ::strsignal(WTERMSIG(status)));
  return util::fail(Errc::io, fmt::format("Failed to exec {}: {}", go_string_slice(argv), why));
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
    return run_attached({builder, "build", "-f", "bundle.Dockerfile", "-t", tag, "."});
  }
  if (builder == "buildah") {
    return run_attached(
        {builder, "bud", "--format=docker", "-f", "bundle.Dockerfile", "-t", tag, "."});
  }
  return util::fail(Errc::invalid, fmt::format("{} is not supported image builder", builder));
}

} // namespace opm::cmd::alpha_bundle
