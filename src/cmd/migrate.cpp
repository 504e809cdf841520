#include "migrate/migrate.hpp"

#include "bundle/migrations.hpp"
#include "cmd/commands.hpp"
#include "cmd/migrate_level.hpp"
#include "cmd/output_format.hpp"
#include "cmd/registry_options.hpp"
#include "render/image.hpp"
#include "render/render.hpp"
#include "sqlite/deprecation.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <array>
#include <fstream>
#include <memory>
#include <sys/stat.h>

namespace opm::cmd {

namespace {

struct MigrateFlags {
  std::vector<std::string> args;
  std::string output = "json";
  std::string migrate_level;
};

bool is_sqlite_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<char, 4> magic{};
  return in.read(magic.data(), magic.size()) && std::string_view(magic.data(), 4) == "SQLi";
}

constexpr std::string_view k_database_label = "operators.operatorframework.io.index.database.v1";

// A SQLite database file or index image (upstream v1.26.5's migrate) rather than a file-based
// catalog directory or image (latest upstream's).
bool is_sqlite_input(registry::Puller& puller, const std::string& ref) {
  struct stat st {};
  if (::stat(ref.c_str(), &st) == 0) {
    return !S_ISDIR(st.st_mode) && is_sqlite_file(ref);
  }
  auto labels = puller.labels(ref);
  return labels && labels->contains(std::string(k_database_label));
}

// Renders the reference as upstream's migrate does: a SQLite database, a catalog directory or
// an image of either; bundles are refused.
Result<catalog::DeclarativeConfig> render_catalog(registry::Puller& puller, const std::string& ref,
                                                  std::vector<bundle::Migration> migrations) {
  render::Options options;
  options.allow_bundle_dirs = false;
  options.allow_bundle_images = false;
  options.migrations = std::move(migrations);
  options.render_image =
      [&puller](const std::string& image,
                const render::AllowedImages&) -> Result<catalog::DeclarativeConfig> {
    auto location = OPM_TRY(check_path_or_image(image));
    return render::render_image(
        puller, location,
        render::ImageRenderOptions{.allow_bundle_image = false, .cache = nullptr, .on_sqlite = {}});
  };
  struct stat st {};
  if (::stat(ref.c_str(), &st) == 0 && !S_ISDIR(st.st_mode) && is_sqlite_file(ref)) {
    auto cfg = OPM_TRY(render::render_sqlite_file(ref));
    if (auto migrated = bundle::run_migrations(options.migrations, cfg); !migrated) {
      return std::unexpected(std::move(migrated).error().wrap("migrate"));
    }
    return cfg;
  }
  if (::stat(ref.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    return util::fail(Errc::invalid, fmt::format("ref {} has unsupported file type: {{{{  }} "
                                                 "unknown}}",
                                                 util::go_quote(ref)));
  }
  return render::render({ref}, options);
}

} // namespace

void add_migrate(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<MigrateFlags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = "migrate <indexRef> <outputDir>",
       .short_text = "Migrate a sqlite-based index image or database file to a file-based catalog",
       .long_text =
           "Migrate a sqlite-based index image or database file to a file-based catalog.\n\n"
           "NOTE: the --output=json format produces streamable, concatenated JSON files.\n"
           "These are suitable to opm and jq, but may not be supported by arbitrary JSON\n"
           "parsers that assume that a file contains exactly one valid JSON object.\n\n" +
           std::string(sqlite::k_sqlite_deprecation_notice),
       .args = Args::exact(2)},
      &flags->args);
  sub->add_option("-o,--output", flags->output, "Output format (json|yaml)");
  add_migrate_level_flag(*sub, flags->migrate_level);
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, &chosen, flags]() -> Result<void> {
      const auto& ref = flags->args.at(0);
      const std::filesystem::path dir = flags->args.at(1);
      // The global TLS flags apply, as they do to render (upstream's migrate ignores them).
      auto reg = registry_options(ctx);
      auto puller = registry::make_puller(std::move(reg));
      const bool sqlite_input = is_sqlite_input(*puller, ref);
      if (sqlite_input) {
        log_sqlite_deprecation(ctx);
      }
      auto format = catalog_output_format(flags->output);
      if (!format) {
        chosen.style = FatalStyle::go_log;
        return std::unexpected(std::move(format).error());
      }
      auto migrations = migrations_for_level(flags->migrate_level);
      if (!migrations) {
        chosen.style = FatalStyle::go_log;
        return std::unexpected(std::move(migrations).error());
      }
      ctx.err << util::logrus_line(
          "info", fmt::format("rendering index {} as file-based catalog", util::go_quote(ref)),
          ctx.err_is_tty);
      OPM_TRY(migrate::check_output_dir(dir));
      auto cfg = render_catalog(*puller, ref, std::move(*migrations));
      puller->destroy();
      if (!cfg) {
        auto message = cfg.error().message();
        return std::unexpected(std::move(cfg).error().wrap(
            message.starts_with("render reference ")
                ? std::string("render catalog image")
                : fmt::format("render catalog image: render reference {}", util::go_quote(ref))));
      }
      OPM_TRY(migrate::write_packages(*cfg, *format, dir));
      ctx.err << util::logrus_line(
          "info",
          fmt::format("wrote rendered file-based catalog to {}\n", util::go_quote(dir.string())),
          ctx.err_is_tty);
      return {};
    };
  });
}

} // namespace opm::cmd
