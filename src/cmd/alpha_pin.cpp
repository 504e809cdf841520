#include "catalog/write.hpp"
#include "cmd/commands.hpp"
#include "cmd/output_format.hpp"
#include "cmd/registry_options.hpp"
#include "pin/pin.hpp"
#include "registry/options.hpp"
#include "registry/puller.hpp"
#include "render/render.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <mutex>

namespace opm::cmd {

namespace {

struct PinFlags {
  std::vector<std::string> args;
  std::string output = "json";
  bool skip_unresolved = false;
  std::string platform;
};

// Resolves tags through the registry client the render made (its mirrors, credentials and
// cache), built only when a reference needs it.
pin::Resolve registry_resolver(ImageRendering& rendering) {
  return [&rendering](const std::string& ref) -> Result<std::string> {
    return rendering.puller->digest(ref);
  };
}

Result<void> run_pin(Context& ctx, const PinFlags& flags) {
  auto format = OPM_TRY(catalog_output_format(flags.output));
  render::Options options;
  options.on_sqlite = sqlite_notice_once(ctx);
  ImageRendering rendering;
  OPM_TRY(render_images_with_registry(ctx, options, rendering, flags.platform));
  auto cfg = OPM_TRY(render::render({flags.args.at(0)}, options));
  pin::Options pinning{.jobs = registry_options(ctx).jobs,
                       .skip_unresolved = flags.skip_unresolved,
                       .warn = [&ctx](const std::string& message) {
                         ctx.err << util::logrus_line("warning", message, ctx.err_is_tty);
                       }};
  OPM_TRY(pin::pin_images(cfg, registry_resolver(rendering), pinning));
  // Written only once every check has passed: a failure writes nothing.
  catalog::write(cfg, format, ctx.out);
  return {};
}

} // namespace

void add_alpha_pin(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<PinFlags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = "pin <catalog-image | catalog-directory | sqlite-file>",
       .short_text = "Pin every bundle image and related image of a catalog to its digest",
       .long_text =
           "Resolve the tag of every bundle image and related image of a catalog through the\n"
           "registry and write the catalog with each reference naming its digest instead, as\n"
           "a file-based catalog to stdout. References that already name a digest are kept\n"
           "as they are and need no registry. A multi-platform image is pinned to the digest\n"
           "of its index.\n",
       .args = Args::exact(1)},
      &flags->args);
  sub->add_option("-o,--output", flags->output,
                  "Output format of the pinned file-based catalog (json|yaml)");
  sub->add_flag("--skip-unresolved", flags->skip_unresolved,
                "Keep references whose tag cannot be resolved as they are, with a warning");
  sub->add_option("--platform", flags->platform,
                  "Platform (os/arch[/variant]) that multi-platform images must offer (default: "
                  "linux and this machine's architecture)");
  sub->callback([&ctx, &chosen, flags, sub] {
    chosen.command = sub;
    chosen.style = FatalStyle::go_log;
    chosen.run = [&ctx, flags]() -> Result<void> { return run_pin(ctx, *flags); };
  });
}

} // namespace opm::cmd
