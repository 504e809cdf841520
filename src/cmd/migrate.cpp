#include "migrate/migrate.hpp"

#include "cmd/commands.hpp"
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
};

bool is_sqlite_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<char, 4> magic{};
  return in.read(magic.data(), magic.size()) && std::string_view(magic.data(), 4) == "SQLi";
}

// Upstream renders the reference allowing only a SQLite file or a SQLite index image.
Result<catalog::DeclarativeConfig> render_sqlite(Context& ctx, const std::string& ref) {
  struct stat st {};
  if (::stat(ref.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      return util::fail(Errc::not_allowed,
                        "cannot render declarative config directory: not allowed");
    }
    if (!is_sqlite_file(ref)) {
      return util::fail(Errc::invalid, fmt::format("ref {} has unsupported file type: {{{{  }} "
                                                   "unknown}}",
                                                   util::go_quote(ref)));
    }
    return render::render_sqlite_file(ref);
  }
  // The global TLS flags do not apply here, as upstream's migrate ignores them.
  auto reg = registry_options(ctx);
  reg.use_http = false;
  reg.skip_tls_verify = false;
  auto puller = registry::make_puller(std::move(reg));
  auto cfg = render::render_image(
      *puller, ref,
      render::ImageRenderOptions{.allow_bundle_image = false, .cache = nullptr, .on_sqlite = {}});
  puller->destroy();
  return cfg;
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
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, &chosen, flags]() -> Result<void> {
      ctx.err << util::logrus_line("warning", sqlite::k_sqlite_deprecation_notice, ctx.err_is_tty);
      catalog::Format format = catalog::Format::json;
      if (flags->output == "yaml") {
        format = catalog::Format::yaml;
      } else if (flags->output != "json") {
        chosen.style = FatalStyle::go_log;
        return util::fail(Errc::invalid,
                          fmt::format("invalid --output value {}, expected (json|yaml)",
                                      util::go_quote(flags->output)));
      }
      const auto& ref = flags->args.at(0);
      const std::filesystem::path dir = flags->args.at(1);
      ctx.err << util::logrus_line(
          "info", fmt::format("rendering index {} as file-based catalog", util::go_quote(ref)),
          ctx.err_is_tty);
      OPM_TRY(migrate::check_output_dir(dir));
      auto cfg = render_sqlite(ctx, ref);
      if (!cfg) {
        return std::unexpected(std::move(cfg).error().wrap(
            fmt::format("render catalog image: render reference {}", util::go_quote(ref))));
      }
      OPM_TRY(migrate::write_packages(*cfg, format, dir));
      ctx.err << util::logrus_line(
          "info",
          fmt::format("wrote rendered file-based catalog to {}\n", util::go_quote(dir.string())),
          ctx.err_is_tty);
      return {};
    };
  });
}

} // namespace opm::cmd
