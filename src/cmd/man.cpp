#include "cli/man_pages.hpp"
#include "cmd/commands.hpp"
#include "util/fs.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <memory>

namespace opm::cmd {

// Hidden: `opm __generate-man DIR` writes the manual pages of every visible command and of the
// alpha ones.
void add_generate_man(CLI::App& parent, Context& ctx, Action& chosen) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto* sub = add_command(parent, ctx,
                          {.use = "__generate-man <directory>",
                           .short_text = "Write the manual pages into a directory",
                           .args = Args::exact(1),
                           .hidden = true},
                          args.get());
  sub->callback([&parent, &ctx, &chosen, sub, args] {
    chosen.command = sub;
    chosen.run = [&parent, &ctx, args]() -> Result<void> {
      std::filesystem::path dir = args->at(0);
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      if (ec) {
        return util::fail(Errc::io, fmt::format("mkdir {}: {}", dir.string(), ec.message()));
      }
      ctx.meta.show_alpha = true; // the alpha commands have pages too
      for (const auto& page : cli::man_pages(parent, ctx.meta)) {
        OPM_TRY(util::write_file_atomic(dir / page.file_name, page.text));
      }
      return {};
    };
  });
}

} // namespace opm::cmd
