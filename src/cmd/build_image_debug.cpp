// `opm __build-image`: a hidden command that makes an image of a prepared root directory,
// for scripts/build-image.sh (the opm base image, built without a container engine).
#include "cmd/commands.hpp"
#include "cmd/image_build.hpp"
#include "cmd/registry_options.hpp"
#include "dockerfile/fbc.hpp"
#include "image/rootfs_image.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>

namespace opm::cmd {

namespace {

struct RootfsFlags {
  std::string rootfs;
  std::string tag;
  std::vector<std::string> labels;
  image::RootfsImage image;
};

Result<void> run_build_image(Context& ctx, RootfsFlags& f) {
  std::error_code ec;
  if (!std::filesystem::is_directory(f.rootfs, ec)) {
    return util::fail(Errc::invalid, fmt::format("root directory {} is not a directory", f.rootfs));
  }
  image::RootfsImage build = f.image;
  build.rootfs = f.rootfs;
  build.labels = OPM_TRY(dockerfile::parse_labels(f.labels));
  build.created = OPM_TRY(source_date_epoch(ctx));
  registry::Options options = registry_options(ctx);
  options.log =
      stderr_log(ctx, ctx.global.debug ? registry::LogLevel::debug : registry::LogLevel::warn);
  return build_and_deliver(ctx, options, "opm-image-build-", f.tag, build.created,
                           [&build](registry::Puller& images, const std::filesystem::path& work) {
                             return image::build_rootfs_image(build, images, work);
                           });
}

} // namespace

void add_build_image_debug(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<RootfsFlags>();
  auto* sub = parent.add_subcommand("__build-image", "Make an image of a root directory");
  sub->group("");
  sub->fallthrough();
  image::RootfsImage& i = flags->image;
  sub->add_option("rootfs", flags->rootfs, "the root directory")->required();
  sub->add_option("-t,--tag", flags->tag,
                  "registry reference, oci:DIR[:TAG] or docker-archive:FILE")
      ->required();
  sub->add_option("-l,--label", flags->labels, "a config label, key=value");
  sub->add_option("--env", i.env, "a config environment variable, NAME=value");
  sub->add_option("--entrypoint", i.entrypoint, "the entrypoint, one flag per argument");
  sub->add_option("--user", i.user, "the user the image runs as");
  sub->add_option("--workdir", i.working_dir, "the working directory");
  sub->add_option("--platform", i.platform, "os/arch[/variant] (default: this machine)");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.style = FatalStyle::go_log;
    chosen.run = [&ctx, flags]() -> Result<void> { return run_build_image(ctx, *flags); };
  });
}

} // namespace opm::cmd
