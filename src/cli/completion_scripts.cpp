#include "cli/completion_scripts.hpp"

#include "cli/tree.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <functional>

namespace opm::cli {

namespace {

struct Entry {
  std::string name;
  std::string description;
};

struct Node {
  std::string path;               // "opm generate dockerfile"
  std::vector<Entry> subcommands; // available ones, and help
  std::vector<FlagView> flags;    // visible, local and inherited
  bool takes_files = false;       // a command that accepts arguments
};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

void collect(const CLI::App& command, const CommandMeta& meta, std::vector<Node>& out) {
  Node node;
  node.path = command_path(command);
  for (const CLI::App* sub : subcommands(command)) {
    bool help_command = command.get_parent() == nullptr && sub->get_name() == "help";
    if (is_available(*sub, meta) || help_command) {
      node.subcommands.push_back({sub->get_name(), first_line(short_text(*sub, meta))});
    }
  }
  for (auto& flag : all_flags(command, meta)) {
    if (!flag.hidden) {
      node.flags.push_back(std::move(flag));
    }
  }
  node.takes_files = is_runnable(command, meta) && !positional_options(command).empty() &&
                     args_rule(command, meta).kind != Args::Kind::none;
  out.push_back(std::move(node));
  for (const CLI::App* sub : subcommands(command)) {
    if (is_available(*sub, meta) || is_deprecated_but_usable(*sub, meta)) {
      collect(*sub, meta, out);
    }
  }
}

std::vector<std::string> flag_words(const Node& node, bool values_only) {
  std::vector<std::string> words;
  for (const FlagView& f : node.flags) {
    if (values_only && !f.takes_value()) {
      continue;
    }
    words.push_back("--" + f.name);
    if (f.shorthand != 0) {
      words.push_back(std::string("-") + f.shorthand);
    }
  }
  return words;
}

std::string join_words(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) {
      out += ' ';
    }
    out += w;
  }
  return out;
}

// A single-quoted shell word (bash and zsh).
std::string sh_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

// A single-quoted fish word.
std::string fish_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  out += '\'';
  return out;
}

std::string bash_case(const std::vector<Node>& nodes, std::string_view function,
                      const std::function<std::vector<std::string>(const Node&)>& words) {
  std::string out = fmt::format("{}() {{\n    case \"$1\" in\n", function);
  for (const Node& node : nodes) {
    auto list = words(node);
    if (!list.empty()) {
      out +=
          fmt::format("        {}) echo {} ;;\n", sh_quote(node.path), sh_quote(join_words(list)));
    }
  }
  out += "    esac\n}\n\n";
  return out;
}

std::vector<std::string> subcommand_names(const Node& node) {
  std::vector<std::string> names;
  for (const auto& e : node.subcommands) {
    names.push_back(e.name);
  }
  return names;
}

std::string bash_script(const std::vector<Node>& nodes) {
  std::string out =
      "# bash completion for opm                                  -*- shell-script -*-\n"
      "# Written by \"opm completion bash\"; regenerate it instead of editing it.\n\n";
  out += bash_case(nodes, "__opm_subcommands", subcommand_names);
  out += bash_case(nodes, "__opm_flags", [](const Node& n) { return flag_words(n, false); });
  out += bash_case(nodes, "__opm_value_flags", [](const Node& n) { return flag_words(n, true); });
  out += R"SH(__opm_complete() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path='opm' word i
    for ((i = 1; i < COMP_CWORD; i++)); do
        word="${COMP_WORDS[i]}"
        if [[ "$word" == "--" ]]; then
            break
        elif [[ "$word" == -* ]]; then
            if [[ "$word" != *=* && " $(__opm_value_flags "$path") " == *" $word "* ]]; then
                ((i++))
            fi
        elif [[ " $(__opm_subcommands "$path") " == *" $word "* ]]; then
            path="$path $word"
        fi
    done
    if ((COMP_CWORD > 1)); then
        prev="${COMP_WORDS[COMP_CWORD - 1]}"
    fi
    COMPREPLY=()
    if [[ "$prev" == -* && " $(__opm_value_flags "$path") " == *" $prev "* ]]; then
        return # a flag value: file names
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(__opm_flags "$path")" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$(__opm_subcommands "$path")" -- "$cur"))
    fi
}

complete -o default -F __opm_complete opm
)SH";
  return out;
}

// A _describe entry: "name:description" with colons in the name escaped.
std::string zsh_entry(const std::string& name, const std::string& description, bool descriptions) {
  std::string escaped;
  for (char c : name) {
    if (c == ':') {
      escaped += '\\';
    }
    escaped += c;
  }
  if (!descriptions || description.empty()) {
    return sh_quote(escaped);
  }
  return sh_quote(escaped + ":" + description);
}

std::string zsh_case(const std::vector<Node>& nodes, std::string_view function,
                     const std::function<std::vector<std::string>(const Node&)>& entries) {
  std::string out = fmt::format("{}() {{\n  case \"$1\" in\n", function);
  for (const Node& node : nodes) {
    auto list = entries(node);
    if (list.empty()) {
      continue;
    }
    out += fmt::format("    {})\n      reply=(\n", sh_quote(node.path));
    for (const auto& e : list) {
      out += "        " + e + "\n";
    }
    out += "      ) ;;\n";
  }
  out += "    *) reply=() ;;\n  esac\n}\n\n";
  return out;
}

std::string zsh_script(const std::vector<Node>& nodes, bool descriptions) {
  std::string out = "#compdef opm\n"
                    "# zsh completion for opm\n"
                    "# Written by \"opm completion zsh\"; regenerate it instead of editing it.\n\n";
  out += zsh_case(nodes, "__opm_subcommands", [&](const Node& n) {
    std::vector<std::string> list;
    for (const auto& e : n.subcommands) {
      list.push_back(zsh_entry(e.name, e.description, descriptions));
    }
    return list;
  });
  out += zsh_case(nodes, "__opm_subcommand_names", [](const Node& n) {
    std::vector<std::string> list;
    for (const auto& e : n.subcommands) {
      list.push_back(sh_quote(e.name));
    }
    return list;
  });
  out += zsh_case(nodes, "__opm_flags", [&](const Node& n) {
    std::vector<std::string> list;
    for (const FlagView& f : n.flags) {
      std::string text = first_line(f.usage);
      list.push_back(zsh_entry("--" + f.name, text, descriptions));
      if (f.shorthand != 0) {
        list.push_back(zsh_entry(std::string("-") + f.shorthand, text, descriptions));
      }
    }
    return list;
  });
  out += zsh_case(nodes, "__opm_value_flags", [](const Node& n) {
    std::vector<std::string> list;
    for (const auto& w : flag_words(n, true)) {
      list.push_back(sh_quote(w));
    }
    return list;
  });
  out += R"SH(_opm() {
  local path='opm' word prev i
  local -a reply
  for ((i = 2; i < CURRENT; i++)); do
    word="${words[i]}"
    if [[ "$word" == "--" ]]; then
      break
    elif [[ "$word" == -* ]]; then
      __opm_value_flags "$path"
      if [[ "$word" != *=* ]] && (( ${reply[(Ie)$word]} )); then
        ((i++))
      fi
    else
      __opm_subcommand_names "$path"
      if (( ${reply[(Ie)$word]} )); then
        path="$path $word"
      fi
    fi
  done
  prev="${words[CURRENT-1]}"
  __opm_value_flags "$path"
  if (( CURRENT > 2 )) && [[ "$prev" == -* ]] && (( ${reply[(Ie)$prev]} )); then
    _files
    return
  fi
  if [[ "${words[CURRENT]}" == -* ]]; then
    __opm_flags "$path"
    _describe -t flags 'flag' reply
    return
  fi
  __opm_subcommands "$path"
  if (( ${#reply} )); then
    _describe -t commands 'command' reply
  else
    _files
  fi
}

if [[ "$funcstack[1]" == "_opm" ]]; then
  _opm "$@"
else
  compdef _opm opm
fi
)SH";
  return out;
}

std::string fish_script(const std::vector<Node>& nodes, bool descriptions) {
  std::string out =
      "# fish completion for opm\n"
      "# Written by \"opm completion fish\"; regenerate it instead of editing it.\n\n";
  auto fish_switch = [&](std::string_view function,
                         const std::function<std::vector<std::string>(const Node&)>& words) {
    std::string text =
        fmt::format("function {} --argument-names path\n    switch $path\n", function);
    for (const Node& node : nodes) {
      auto list = words(node);
      if (list.empty()) {
        continue;
      }
      text += fmt::format("        case {}\n            printf '%s\\n'", fish_quote(node.path));
      for (const auto& w : list) {
        text += " " + fish_quote(w);
      }
      text += "\n";
    }
    text += "    end\nend\n\n";
    return text;
  };
  out += fish_switch("__opm_subcommands", subcommand_names);
  out += fish_switch("__opm_value_flags", [](const Node& n) { return flag_words(n, true); });
  out += R"SH(function __opm_path
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path opm
    set -l skip 0
    for word in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        if test "$word" = "--"
            break
        end
        if string match -q -- '-*' $word
            if not string match -q -- '*=*' $word; and contains -- $word (__opm_value_flags "$path")
                set skip 1
            end
        else if contains -- $word (__opm_subcommands "$path")
            set path "$path $word"
        end
    end
    echo $path
end

function __opm_at --argument-names path
    test (__opm_path) = "$path"
end

complete -c opm -f
)SH";
  for (const Node& node : nodes) {
    std::string condition = fish_quote(fmt::format("__opm_at \"{}\"", node.path));
    for (const auto& e : node.subcommands) {
      out += fmt::format("complete -c opm -n {} -a {}", condition, fish_quote(e.name));
      if (descriptions && !e.description.empty()) {
        out += " -d " + fish_quote(e.description);
      }
      out += "\n";
    }
    for (const FlagView& f : node.flags) {
      out += fmt::format("complete -c opm -n {}", condition);
      if (f.shorthand != 0) {
        out += fmt::format(" -s {}", f.shorthand);
      }
      out += " -l " + f.name;
      if (f.takes_value()) {
        out += " -r -F";
      }
      std::string text = first_line(f.usage);
      if (descriptions && !text.empty()) {
        out += " -d " + fish_quote(text);
      }
      out += "\n";
    }
    if (node.takes_files) {
      out += fmt::format("complete -c opm -n {} -F\n", condition);
    }
  }
  return out;
}

// A single-quoted PowerShell string.
std::string ps_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') {
      out += '\'';
    }
  }
  out += '\'';
  return out;
}

// One `'word', 'tooltip'` pair of a flat table: PowerShell rejects an empty tooltip, so the
// word stands in for a missing description.
std::string ps_pair(const std::string& word, const std::string& description, bool descriptions) {
  const std::string& tip = descriptions && !description.empty() ? description : word;
  return fmt::format("            {}, {}\n", ps_quote(word), ps_quote(tip));
}

// `'path' = @(\n rows )\n`, or nothing without rows. Each row is a statement whose items
// @() gathers into one flat list.
std::string ps_entry(const std::string& path, const std::string& rows) {
  if (rows.empty()) {
    return {};
  }
  return fmt::format("        {} = @(\n{}        )\n", ps_quote(path), rows);
}

std::string powershell_script(const std::vector<Node>& nodes, bool descriptions) {
  std::string subcommands;
  std::string flags;
  std::string value_flags;
  std::string file_commands;
  for (const Node& node : nodes) {
    std::string rows;
    for (const auto& e : node.subcommands) {
      rows += ps_pair(e.name, e.description, descriptions);
    }
    subcommands += ps_entry(node.path, rows);
    rows.clear();
    std::string values;
    for (const FlagView& f : node.flags) {
      std::string text = first_line(f.usage);
      rows += ps_pair("--" + f.name, text, descriptions);
      if (f.shorthand != 0) {
        rows += ps_pair(std::string("-") + f.shorthand, text, descriptions);
      }
      if (f.takes_value()) {
        values += fmt::format("            {}\n", ps_quote("--" + f.name));
        if (f.shorthand != 0) {
          values += fmt::format("            {}\n", ps_quote(std::string("-") + f.shorthand));
        }
      }
    }
    flags += ps_entry(node.path, rows);
    value_flags += ps_entry(node.path, values);
    if (node.takes_files) {
      file_commands += fmt::format("        {}\n", ps_quote(node.path));
    }
  }
  std::string out = "# powershell completion for opm                                  "
                    "-*- shell-script -*-\n"
                    "# Written by \"opm completion powershell\"; regenerate it instead of "
                    "editing it.\n\n"
                    "Register-ArgumentCompleter -Native -CommandName 'opm' -ScriptBlock {\n"
                    "    param($WordToComplete, $CommandAst, $CursorPosition)\n\n"
                    "    # Per command: name, tooltip, name, tooltip, ...\n"
                    "    $subcommands = @{\n" +
                    subcommands +
                    "    }\n"
                    "    $flags = @{\n" +
                    flags +
                    "    }\n"
                    "    $valueFlags = @{\n" +
                    value_flags +
                    "    }\n"
                    "    $fileCommands = @(\n" +
                    file_commands + "    )\n";
  out += R"PS(
    # The words before the one being completed, opm itself left out.
    $words = @($CommandAst.CommandElements |
        Where-Object { $_.Extent.EndOffset -lt $CursorPosition } |
        ForEach-Object { $_.Extent.Text } | Select-Object -Skip 1)
    $path = 'opm'
    $value = $false
    foreach ($word in $words) {
        if ($value) {
            $value = $false
            continue
        }
        if ($word -eq '--') {
            break
        }
        if ($word.StartsWith('-')) {
            $value = -not $word.Contains('=') -and $valueFlags[$path] -ccontains $word
            continue
        }
        $names = @($subcommands[$path])
        for ($i = 0; $i -lt $names.Count; $i += 2) {
            if ($names[$i] -ceq $word) {
                $path = "$path $word"
                break
            }
        }
    }
    if ($value) {
        return # a flag's value: PowerShell completes file names
    }
    if ($WordToComplete.StartsWith('-')) {
        $candidates = @($flags[$path])
        $kind = 'ParameterName'
    } else {
        $candidates = @($subcommands[$path])
        $kind = 'ParameterValue'
        if ($candidates.Count -eq 0 -and $fileCommands -ccontains $path) {
            return
        }
    }
    for ($i = 0; $i + 1 -lt $candidates.Count; $i += 2) {
        if ($candidates[$i].StartsWith($WordToComplete, [System.StringComparison]::Ordinal)) {
            [System.Management.Automation.CompletionResult]::new(
                $candidates[$i], $candidates[$i], $kind, $candidates[$i + 1])
        }
    }
}
)PS";
  return out;
}

} // namespace

std::string completion_script(const CLI::App& root, const CommandMeta& meta, Shell shell,
                              bool descriptions) {
  std::vector<Node> nodes;
  collect(root, meta, nodes);
  switch (shell) {
  case Shell::bash:
    return bash_script(nodes);
  case Shell::zsh:
    return zsh_script(nodes, descriptions);
  case Shell::fish:
    return fish_script(nodes, descriptions);
  case Shell::powershell:
    return powershell_script(nodes, descriptions);
  }
  return {};
}

} // namespace opm::cli
