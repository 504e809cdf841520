#include "render/render.hpp"

#include "catalog/write.hpp"
#include "cmd/commands.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <sstream>

namespace opm::cmd {

namespace {

struct RenderFlags {
  std::vector<std::string> refs;
  std::string output = "json";
  std::string migrate_level;
  bool migrate_all = false;
  std::string image_ref_template;
};

constexpr std::string_view k_migrations_help = R"(Name of the last migration to run (default: none)

The migrator will run all migrations up to and including the selected level.

Available migrators:
  - none                          : do nothing
  - bundle-object-to-csv-metadata : migrates bundles' "olm.bundle.object" to "olm.csv.metadata"
)";

Result<void> check_migration_level(const RenderFlags& flags) {
  if (flags.migrate_all) {
    return util::fail(Errc::invalid, "migrations are not supported yet");
  }
  if (flags.migrate_level.empty() || flags.migrate_level == "none") {
    return {};
  }
  if (flags.migrate_level == "bundle-object-to-csv-metadata" || flags.migrate_level == "all") {
    return util::fail(Errc::invalid, "migrations are not supported yet");
  }
  return util::fail(Errc::invalid,
                    fmt::format("unknown migration level {}", util::go_quote(flags.migrate_level)));
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
  sub->add_option("--migrate-level", flags->migrate_level, std::string(k_migrations_help));
  sub->add_flag("--migrate", flags->migrate_all,
                "Perform all available schema migrations on the rendered FBC");
  ctx.meta.mutually_exclusive(sub, {"migrate", "migrate-level"});
  sub->add_option("--alpha-image-ref-template", flags->image_ref_template,
                  "When bundle image reference information is unavailable, populate it with "
                  "this template");

  sub->callback([&ctx, &chosen, flags, sub] {
    chosen.command = sub;
    chosen.style = FatalStyle::go_log;
    chosen.run = [&ctx, flags]() -> Result<void> {
      catalog::Format format;
      if (flags->output == "json") {
        format = catalog::Format::json;
      } else if (flags->output == "yaml") {
        format = catalog::Format::yaml;
      } else {
        return util::fail(Errc::invalid,
                          fmt::format("invalid --output value {}, expected (json|yaml)",
                                      util::go_quote(flags->output)));
      }
      OPM_TRY(check_migration_level(*flags));
      auto cfg = OPM_TRY(render::render(flags->refs));
      catalog::write(cfg, format, ctx.out);
      return {};
    };
  });
}

} // namespace opm::cmd
