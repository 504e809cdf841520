#include "render/render.hpp"

#include "bundle/migrations.hpp"
#include "catalog/write.hpp"
#include "cmd/commands.hpp"
#include "cmd/migrate_level.hpp"
#include "cmd/output_format.hpp"
#include "cmd/registry_options.hpp"
#include "sqlite/deprecation.hpp"
#include "util/free_at_exit.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <mutex>
#include <sstream>

namespace opm::cmd {

namespace {

struct RenderFlags {
  std::vector<std::string> refs;
  std::string output = "json";
  std::string migrate_level;
  bool migrate_all = false;
  std::string image_ref_template;
  std::string platform;
};

// --migrate-level / --migrate: nothing, the migrations up to a level, or all of them.
Result<std::vector<bundle::Migration>> selected_migrations(const RenderFlags& flags) {
  if (flags.migrate_all) {
    return bundle::migrations_up_to("all");
  }
  return migrations_for_level(flags.migrate_level);
}

} // namespace

void add_render(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<RenderFlags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = "render [catalog-image | catalog-directory | bundle-image | bundle-directory]...",
       .short_text = "Generate a stream of file-based catalog objects from catalogs and bundles",
       .long_text = "Generate a stream of file-based catalog objects to stdout from the provided\n"
                    "catalog images, file-based catalog directories, bundle images, and bundle "
                    "directories.\n",
       .args = Args::minimum(1)},
      &flags->refs);
  sub->add_option("-o,--output", flags->output,
                  "Output format of the streamed file-based catalog objects (json|yaml)");
  add_migrate_level_flag(*sub, flags->migrate_level);
  sub->add_flag("--migrate", flags->migrate_all,
                "Perform all available schema migrations on the rendered FBC");
  ctx.meta.mutually_exclusive(sub, {"migrate", "migrate-level"});
  sub->add_option("--platform", flags->platform,
                  "Platform (os/arch[/variant]) to render from multi-platform images (default: "
                  "linux and this machine's architecture)");
  sub->add_option("--alpha-image-ref-template", flags->image_ref_template,
                  "When bundle image reference information is unavailable, populate it with "
                  "this template");

  sub->callback([&ctx, &chosen, flags, sub] {
    chosen.command = sub;
    chosen.style = FatalStyle::go_log;
    chosen.run = [&ctx, flags]() -> Result<void> {
      auto format = OPM_TRY(catalog_output_format(flags->output));
      render::Options options;
      options.on_sqlite = sqlite_notice_once(ctx);
      ImageRendering rendering;
      OPM_TRY(render_images_with_registry(ctx, options, rendering, flags->platform));
      if (!flags->image_ref_template.empty()) {
        auto parsed = render::ImageRefTemplate::parse(flags->image_ref_template);
        if (!parsed) {
          return std::unexpected(
              std::move(parsed).error().wrap("invalid image reference template"));
        }
        options.image_ref_template = std::move(*parsed);
      }
      options.migrations = OPM_TRY(selected_migrations(*flags));
      options.catalog_objects = catalog::KeepObjects::csv_only;
      auto cfg = OPM_TRY(render::render(flags->refs, options));
      catalog::write(cfg, format, ctx.out);
      util::free_at_exit(std::move(cfg));
      return {};
    };
  });
}

} // namespace opm::cmd
