#include "cli/completion_scripts.hpp"
#include "cmd/commands.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>

namespace opm::cmd {

namespace {

struct ShellInfo {
  cli::Shell shell;
  std::string_view name;
  std::string_view long_text;
};

constexpr std::string_view k_bash_long = R"(Generate the autocompletion script for the bash shell.

The script completes subcommands and flags on its own; it does not call opm.

To load completions in your current shell session:

	source <(opm completion bash)

To load completions for every new session, execute once:

	opm completion bash > /etc/bash_completion.d/opm

You will need to start a new shell for this setup to take effect.
)";

constexpr std::string_view k_zsh_long = R"(Generate the autocompletion script for the zsh shell.

If shell completion is not already enabled in your environment you will need
to enable it.  You can execute the following once:

	echo "autoload -U compinit; compinit" >> ~/.zshrc

To load completions in your current shell session:

	source <(opm completion zsh)

To load completions for every new session, execute once:

	opm completion zsh > "${fpath[1]}/_opm"

You will need to start a new shell for this setup to take effect.
)";

constexpr std::string_view k_fish_long = R"(Generate the autocompletion script for the fish shell.

To load completions in your current shell session:

	opm completion fish | source

To load completions for every new session, execute once:

	opm completion fish > ~/.config/fish/completions/opm.fish

You will need to start a new shell for this setup to take effect.
)";

constexpr std::string_view k_powershell_long =
    R"(Generate the autocompletion script for powershell.

To load completions in your current shell session:

	opm completion powershell | Out-String | Invoke-Expression

To load completions for every new session, add the output of the above command
to your powershell profile.
)";

constexpr ShellInfo k_shells[] = {
    {cli::Shell::bash, "bash", k_bash_long},
    {cli::Shell::zsh, "zsh", k_zsh_long},
    {cli::Shell::fish, "fish", k_fish_long},
    {cli::Shell::powershell, "powershell", k_powershell_long},
};

} // namespace

// cobra's default `completion` group, printing static scripts built from the command tree.
void add_completion(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* completion = add_command(
      parent, ctx,
      {.use = "completion",
       .short_text = "Generate the autocompletion script for the specified shell",
       .long_text = "Generate the autocompletion script for opm for the specified shell.\n"
                    "See each sub-command's help for details on how to use the generated "
                    "script.\n",
       .args = Args::none(),
       .runnable = false});
  for (const ShellInfo& info : k_shells) {
    auto no_descriptions = std::make_shared<bool>(false);
    auto* sub = add_command(
        *completion, ctx,
        {.use = std::string(info.name),
         .short_text = fmt::format("Generate the autocompletion script for {}", info.name),
         .long_text = std::string(info.long_text),
         .args = Args::none(),
         .flags_in_use_line = info.shell != cli::Shell::bash});
    sub->add_flag("--no-descriptions", *no_descriptions, "disable completion descriptions");
    cli::Shell shell = info.shell;
    sub->callback([&parent, &ctx, &chosen, sub, shell, no_descriptions] {
      chosen.command = sub;
      chosen.run = [&parent, &ctx, shell, no_descriptions]() -> Result<void> {
        ctx.meta.show_alpha = true; // the scripts complete the alpha commands too
        ctx.out << cli::completion_script(parent, ctx.meta, shell, !*no_descriptions);
        return {};
      };
    });
  }
}

} // namespace opm::cmd
