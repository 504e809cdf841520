#include "catalog/declcfg.hpp"
#include "cmd/commands.hpp"
#include "cmd/registry_options.hpp"
#include "cmd/string_lists.hpp"
#include "diff/run.hpp"
#include "render/render.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <filesystem>
#include <memory>

namespace opm::cmd {

namespace {

struct DiffFlags {
  std::vector<std::string> refs;
  std::string output = "text";
  bool check_upgrades = false;
  std::vector<std::string> allow;
};

constexpr std::string_view k_long =
    R"(Compare two catalogs and print what changed, package by package: packages,
channels and bundles added and removed, default channel changes, each channel's
head before and after, upgrade edges (replaces, skips, skipRange) added and
removed, deprecations added and removed, and bundles whose image or properties
changed. OLD and NEW are anything "opm render" takes: catalog directories,
catalog images, SQLite databases and SQLite index images.

Unchanged catalogs print nothing.

With --check-upgrades, the command fails when the change would leave an
installed operator without an update, by these rules:

upgrade-path: a bundle a channel served in OLD (still listed in NEW, or OLD's
head) cannot upgrade to the channel's head in NEW.

head-downgrade: a channel's head moves to a lower version.

default-channel: the default channel is removed, or the new default channel
neither contains the previous default channel's head nor upgrades it.

unannounced-removal: a package or channel is removed without an
olm.deprecations entry for it in OLD.

Name a rule in --allow to accept such a change deliberately.)";

constexpr std::string_view k_example = R"(
# Show what a pull request changes in the catalog, as a comment
opm alpha diff base/catalog catalog -o markdown

# Fail when the change would strand installed operators
opm alpha diff quay.io/example/catalog:v1 catalog --check-upgrades

# The same, as GitHub annotations, accepting a deliberate head downgrade
opm alpha diff base/catalog catalog --check-upgrades --allow head-downgrade -o github)";

bool stdout_takes_colour(const Context& ctx) {
  return ::isatty(STDOUT_FILENO) == 1 && ctx.env.get("NO_COLOR").value_or("").empty() &&
         ctx.env.get("TERM").value_or("") != "dumb";
}

Result<diff::Options> diff_options(const Context& ctx, const DiffFlags& flags) {
  diff::Options options;
  options.format = OPM_TRY(diff::parse_format(flags.output));
  options.colour = options.format == diff::Format::text && stdout_takes_colour(ctx);
  options.check_upgrades = flags.check_upgrades;
  for (const auto& name : split_values(flags.allow)) {
    auto rule = diff::parse_rule(name);
    if (!rule) {
      return std::unexpected(std::move(rule).error().wrap("invalid --allow"));
    }
    options.allowed.insert(*rule);
  }
  if (!options.allowed.empty() && !options.check_upgrades) {
    return util::fail(Errc::usage, "--allow needs --check-upgrades");
  }
  std::error_code ec;
  options.locate_new = std::filesystem::is_directory(flags.refs.at(1), ec);
  return options;
}

Result<void> run_diff(Context& ctx, const DiffFlags& flags) {
  auto options = OPM_TRY(diff_options(ctx, flags));
  ImageRendering rendering;
  auto rendering_options = OPM_TRY(catalog_render_options(ctx, rendering));
  auto configs = OPM_TRY(render::render_each(flags.refs, rendering_options));
  auto outcome =
      OPM_TRY(diff::run(configs.at(0), flags.refs[0], configs.at(1), flags.refs[1], options));
  ctx.out << outcome.output;
  if (outcome.violations > 0) {
    // The report on stdout explains each problem.
    return util::fail(Errc::invalid,
                      fmt::format("upgrade check failed: {} problem{}", outcome.violations,
                                  outcome.violations == 1 ? "" : "s"));
  }
  return {};
}

} // namespace

void add_alpha_diff(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<DiffFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "diff OLD NEW",
                           .short_text = "Show what changed between two catalogs",
                           .long_text = std::string(k_long),
                           .example = std::string(k_example),
                           .args = Args::exact(2)},
                          &flags->refs);
  sub->add_option("-o,--output", flags->output,
                  "Output format (text|markdown|json, or github|sarif|junit for the upgrade "
                  "check)");
  sub->add_flag("--check-upgrades", flags->check_upgrades,
                "fail when the change would leave an installed operator without an update");
  sub->add_option("--allow", flags->allow,
                  "upgrade rules to accept (upgrade-path, head-downgrade, default-channel, "
                  "unannounced-removal)");

  sub->callback([&ctx, &chosen, flags, sub] {
    chosen.command = sub;
    chosen.style = FatalStyle::logrus;
    chosen.run = [&ctx, flags]() -> Result<void> { return run_diff(ctx, *flags); };
  });
}

} // namespace opm::cmd
