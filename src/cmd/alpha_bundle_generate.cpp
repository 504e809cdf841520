// `opm alpha bundle generate` and `opm alpha bundle build`.
#include "bundle/generate_dir.hpp"
#include "cmd/alpha_bundle.hpp"
#include "cmd/alpha_bundle_image.hpp"
#include "cmd/required_flags.hpp"
#include "util/interrupt.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>

namespace opm::cmd::alpha_bundle {

namespace {

constexpr std::string_view k_generate_long =
    R"(The "opm alpha bundle generate" command will generate operator
bundle metadata if needed and a Dockerfile to build Operator bundle image.

$ opm alpha bundle generate --directory /test/0.1.0/ --package test-operator \
	--channels stable,beta --default stable

Note:
* All manifests yaml must be in the same directory.)";

constexpr std::string_view k_build_long =
    R"(The "opm alpha bundle build" command will generate operator
bundle metadata if needed and build bundle image with operator manifest
and metadata for a specific version.

For example: The command will generate annotations.yaml metadata plus
Dockerfile for bundle image and then build a container image from
provided operator bundle manifests generated metadata
e.g. "quay.io/example/operator:v0.0.1".

After the build process is completed, a container image would be built
locally in docker and available to push to a container registry.

$ opm alpha bundle build --directory /test/0.1.0/ --tag quay.io/example/operator:v0.1.0 \
	--package test-operator --channels stable,beta --default stable --overwrite

Note:
* Bundle image is not runnable.
* All manifests yaml must be in the same directory. )";

constexpr std::string_view k_in_package_note =
    "(Required if `directory` is not pointing to a bundle in the nested bundle format)";

struct GenerateFlags {
  bundle::GenerateRequest request;
  std::string tag;
  std::string image_builder = "docker";
  const CLI::Option* directory = nullptr;
  const CLI::Option* tag_flag = nullptr;
};

void add_shared_flags(CLI::App& sub, GenerateFlags& f, std::string_view directory_usage) {
  f.directory = sub.add_option("-d,--directory", f.request.directory, std::string(directory_usage));
  sub.add_option("-p,--package", f.request.package,
                 "The name of the package that bundle image belongs to " +
                     std::string(k_in_package_note));
  sub.add_option("-c,--channels", f.request.channels,
                 "The list of channels that bundle image belongs to" +
                     std::string(k_in_package_note));
}

// The flags both commands end with.
void add_output_flags(CLI::App& sub, GenerateFlags& f) {
  sub.add_option("-u,--output-dir", f.request.output_dir,
                 "Optional output directory for operator manifests");
  sub.add_option("--base-image", f.request.base_image,
                 "Use a custom image pullspec as the base bundle image");
}

Result<bundle::GeneratedBundle> run_generate(Context& ctx, const GenerateFlags& f) {
  bundle::GenerateRequest request = f.request;
  std::error_code ec;
  request.working_dir = std::filesystem::current_path(ec);
  if (ec) {
    return util::fail(Errc::io, "getwd: " + ec.message());
  }
  util::InterruptScope interrupts;
  return bundle::generate(request, info_log(ctx));
}

} // namespace

void add_generate(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<GenerateFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "generate",
                           .short_text = "Generate operator bundle metadata and Dockerfile",
                           .long_text = std::string(k_generate_long),
                           .args = Args::none()});
  add_shared_flags(*sub, *flags,
                   "The directory where bundle manifests for a specific version are located.");
  sub->add_option("-e,--default", flags->request.default_channel,
                  "The default channel for the bundle image");
  add_output_flags(*sub, *flags);
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, flags]() -> Result<void> {
      OPM_TRY(check_required(ctx, {flags->directory}));
      auto generated = run_generate(ctx, *flags);
      return as_cobra_error(generated ? Result<void>{}
                                      : std::unexpected(std::move(generated).error()));
    };
  });
}

void add_build(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<GenerateFlags>();
  flags->request.overwrite = false;
  auto* sub = add_command(parent, ctx,
                          {.use = "build",
                           .short_text = "Build operator bundle image",
                           .long_text = std::string(k_build_long),
                           .args = Args::none()});
  add_shared_flags(*sub, *flags,
                   "The directory where bundle manifests and metadata for a specific version "
                   "are located");
  flags->tag_flag =
      sub->add_option("-t,--tag", flags->tag, "The image tag applied to the bundle image");
  sub->add_option("-b,--image-builder", flags->image_builder,
                  "Tool used to manage container images. One of: [docker, podman, buildah]");
  sub->add_option("-e,--default", flags->request.default_channel,
                  "The default channel for the bundle image");
  sub->add_flag("-o,--overwrite", flags->request.overwrite,
                "To overwrite annotations.yaml locally if existed. By default, overwrite is set "
                "to `false`.");
  add_output_flags(*sub, *flags);
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, flags]() -> Result<void> {
      OPM_TRY(check_required(ctx, {flags->directory, flags->tag_flag}));
      return as_cobra_error([&]() -> Result<void> {
        auto generated = OPM_TRY(run_generate(ctx, *flags));
        ctx.err << util::logrus_line("info", "Building bundle image", ctx.err_is_tty);
        return build_bundle_image(ctx, generated, flags->tag, flags->image_builder,
                                  flags->request.base_image);
      }());
    };
  });
}

} // namespace opm::cmd::alpha_bundle
