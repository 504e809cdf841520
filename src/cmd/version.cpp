#include "util/version.hpp"

#include "cmd/commands.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace opm::cmd {

void add_version(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* sub = parent.add_subcommand("version", "Print the opm version");
  sub->callback([&ctx, &chosen, sub] {
    chosen.command = sub;
    chosen.run = [&ctx]() -> Result<void> {
      ctx.out << fmt::format(
          "Version: version.Version{{OpmVersion:\"{}\", GitCommit:\"{}\", BuildDate:\"\", "
          "GoOs:\"linux\", GoArch:\"amd64\"}}\n",
          util::version(), util::git_commit());
      return {};
    };
  });
}

} // namespace opm::cmd
