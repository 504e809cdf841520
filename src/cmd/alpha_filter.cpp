#include "catalog/write.hpp"
#include "cmd/commands.hpp"
#include "cmd/output_format.hpp"
#include "cmd/registry_options.hpp"
#include "cmd/required_flags.hpp"
#include "filter/config.hpp"
#include "filter/filter.hpp"
#include "render/render.hpp"
#include "util/free_at_exit.hpp"
#include "util/fs.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"
#include "validate/validate.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>
#include <optional>

namespace opm::cmd {

namespace {

struct FilterFlags {
  std::vector<std::string> args;
  std::string config;
  std::string output = "json";
  bool keep_heads_only = false;
  std::string platform;
};

Result<filter::Config> read_config(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) {
    return std::unexpected(std::move(text).error().wrap("reading filter configuration"));
  }
  return filter::parse_config(*text, path);
}

// Without a configuration, --keep-heads-only keeps every package.
filter::Config every_package(const catalog::DeclarativeConfig& cfg) {
  filter::Config all;
  for (const auto& p : cfg.packages) {
    all.packages.push_back({.name = p.name});
  }
  return all;
}

Result<void> run_filter(Context& ctx, const FilterFlags& flags) {
  auto format = OPM_TRY(catalog_output_format(flags.output));
  std::optional<filter::Config> config;
  if (!flags.config.empty()) {
    config = OPM_TRY(read_config(flags.config));
  }
  render::Options options;
  options.on_sqlite = sqlite_notice_once(ctx);
  ImageRendering rendering;
  OPM_TRY(render_images_with_registry(ctx, options, rendering, flags.platform));
  auto cfg = OPM_TRY(render::render({flags.args.at(0)}, options));
  filter::Options filtering{.keep_heads_only = flags.keep_heads_only,
                            .warn = [&ctx](const std::string& message) {
                              ctx.err << util::logrus_line("warning", message, ctx.err_is_tty);
                            }};
  auto cut = filter::apply(config ? *config : every_package(cfg), filtering, cfg);
  if (!cut) {
    // What the catalog does not locate is the configuration's to answer for.
    Error e = std::move(cut).error();
    bool located = e.where() && !e.where()->empty();
    return std::unexpected(located ? std::move(e) : std::move(e).located({.file = flags.config}));
  }
  util::free_at_exit(std::move(*cut));
  if (auto valid = validate::valid_model(cfg); !valid) {
    return std::unexpected(std::move(valid).error().wrap("the filtered catalog is not valid"));
  }
  // Written only once every check has passed: a failure writes nothing.
  catalog::write(cfg, format, ctx.out);
  util::free_at_exit(std::move(cfg));
  return {};
}

} // namespace

void add_alpha_filter(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<FilterFlags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = "filter <catalog-image | catalog-directory | sqlite-file>",
       .short_text = "Filter a file-based catalog to the packages, channels and versions a "
                     "configuration names",
       .long_text =
           "Filter a catalog to the packages, channels and version ranges named in a\n"
           "FilterConfiguration file and write the result as a file-based catalog to stdout.\n"
           "\n"
           "Within a channel cut by a version range, the bundles that the range's bundles\n"
           "upgrade through are kept as well, so that the result is valid and every kept\n"
           "bundle can be upgraded from. A package whose default channel is filtered away\n"
           "must name a new one in the configuration.\n"
           "\n"
           "Example configuration:\n"
           "\n"
           "  apiVersion: olm.operatorframework.io/v1alpha1\n"
           "  kind: FilterConfiguration\n"
           "  packages:\n"
           "  - name: foo\n"
           "    defaultChannel: stable\n"
           "    channels:\n"
           "    - name: stable\n"
           "      versionRange: \">=1.2.0 <2.0.0\"\n",
       .args = Args::exact(1)},
      &flags->args);
  auto* config_flag = sub->add_option("-c,--config", flags->config,
                                      "Path to the filter configuration (FilterConfiguration)");
  sub->add_option("-o,--output", flags->output,
                  "Output format of the filtered file-based catalog (json|yaml)");
  sub->add_flag("--keep-heads-only", flags->keep_heads_only,
                "Keep only the head of each kept channel: the smallest installable catalog "
                "(of every package when no --config is given)");
  sub->add_option("--platform", flags->platform,
                  "Platform (os/arch[/variant]) to render from multi-platform images (default: "
                  "linux and this machine's architecture)");
  sub->callback([&ctx, &chosen, flags, sub, config_flag] {
    chosen.command = sub;
    chosen.style = FatalStyle::go_log;
    chosen.run = [&ctx, flags, config_flag]() -> Result<void> {
      if (!flags->keep_heads_only) {
        OPM_TRY(check_required(ctx, {config_flag}));
      }
      return run_filter(ctx, *flags);
    };
  });
}

} // namespace opm::cmd
