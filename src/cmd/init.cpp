#include "init/init.hpp"

#include "catalog/write.hpp"
#include "cmd/commands.hpp"
#include "cmd/output_format.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>

namespace opm::cmd {

namespace {
struct InitFlags {
  std::vector<std::string> args;
  std::string default_channel;
  std::string icon;
  std::string description;
  std::string output = "json";
};
} // namespace

void add_init(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<InitFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "init <packageName>",
                           .short_text = "Generate an olm.package declarative config blob",
                           .args = Args::exact(1)},
                          &flags->args);
  sub->add_option("-c,--default-channel", flags->default_channel,
                  "The channel that subscriptions will default to if unspecified");
  sub->add_option("-i,--icon", flags->icon, "Path to package's icon");
  sub->add_option("-d,--description", flags->description,
                  "Path to the operator's README.md (or other documentation)");
  sub->add_option("-o,--output", flags->output, "Output format (json|yaml)");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, flags]() -> Result<void> {
      auto format = OPM_TRY(catalog_output_format(flags->output));
      auto pkg = OPM_TRY(init::make_package({.package = flags->args.at(0),
                                             .default_channel = flags->default_channel,
                                             .icon = flags->icon,
                                             .description = flags->description}));
      catalog::DeclarativeConfig cfg;
      cfg.packages.push_back(std::move(pkg));
      catalog::write(cfg, format, ctx.out);
      return {};
    };
  });
}

} // namespace opm::cmd
