#include "cli/man_pages.hpp"

#include "cli/tree.hpp"
#include "cli/usage.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace opm::cli {

namespace {

// The same on every page: what opm reads from the environment, and what its exit codes mean.
constexpr std::string_view k_environment = R"(.SH ENVIRONMENT
.TP
\fBOLM_CACHE_DIR\fP
where pulled images and rendered bundles are kept (\fB$OLM_CACHE_DIR/images\fP; default \fB$XDG_CACHE_HOME/opm\fP, then \fB~/.cache/opm\fP)
.TP
\fBOPM_NO_CACHE\fP
\fB1\fP, \fBtrue\fP or \fByes\fP: use a private cache, removed when the command ends
.TP
\fBOPM_JOBS\fP
how many images are pulled and rendered at once (default 8)
.TP
\fBOPM_DEBUG_REGISTRY\fP
\fB1\fP, \fBtrue\fP or \fByes\fP: log every registry request and answer on stderr, credentials left out
.TP
\fBREGISTRY_AUTH_FILE\fP, \fBDOCKER_CONFIG\fP, \fBXDG_RUNTIME_DIR\fP
where registry credentials are looked for, as podman and docker look for them
.TP
\fBSSL_CERT_FILE\fP, \fBSSL_CERT_DIR\fP
certificate authorities trusted for registries, besides the system's
.TP
\fBHELP_ALPHA\fP
\fBtrue\fP: help lists the alpha commands
)";

constexpr std::string_view k_exit_status = R"(.SH EXIT STATUS
.TP
\fB0\fP
success
.TP
\fB1\fP
an error, reported on stderr
.TP
\fB2\fP
a bundle that is already in the index was added again
.TP
\fB3\fP
a package version that is already in the index was added again
)";

std::string dashed(const std::string& path) {
  std::string out = path;
  for (char& c : out) {
    if (c == ' ') {
      c = '-';
    }
  }
  return out;
}

// Text for roff: backslashes escaped, hyphens as \-, and a leading '.' or '\'' on a
// line made literal.
std::string roff(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) {
      out += "\\&";
    }
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::string trim_trailing(std::string s) {
  while (!s.empty() && util::is_space(static_cast<unsigned char>(s.back()))) {
    s.pop_back();
  }
  return s;
}

// Paragraphs separated by blank lines; lines indented by a tab or spaces are shown as
// they are (commands to type).
std::string description(const std::string& text) {
  std::string out;
  bool in_paragraph = false;
  bool literal = false;
  for (const std::string& line : util::split(trim_trailing(text), '\n')) {
    bool indented = !line.empty() && (line[0] == '\t' || line[0] == ' ');
    if (line.empty()) {
      if (literal) {
        out += ".fi\n";
        literal = false;
      }
      in_paragraph = false;
      continue;
    }
    if (!in_paragraph) {
      out += ".PP\n";
      in_paragraph = true;
    }
    if (indented && !literal) {
      out += ".nf\n";
      literal = true;
    } else if (!indented && literal) {
      out += ".fi\n";
      literal = false;
    }
    out += roff(indented ? std::string(util::trim(line)) : line) + "\n";
  }
  if (literal) {
    out += ".fi\n";
  }
  return out;
}

std::string options(const std::vector<FlagView>& flags) {
  std::string out;
  for (const FlagView& f : flags) {
    if (f.hidden) {
      continue;
    }
    out += ".TP\n";
    if (f.shorthand != 0) {
      out += fmt::format("\\fB\\-{}\\fP, ", f.shorthand);
    }
    out += fmt::format("\\fB\\-\\-{}\\fP", roff(f.name));
    if (f.takes_value()) {
      out += fmt::format("=\\fI{}\\fP", roff(f.type_name));
    }
    out += "\n";
    std::string text = f.usage;
    if (!f.default_is_zero()) {
      text +=
          fmt::format(" (default {})", f.type == FlagType::string ? util::go_quote(f.default_value)
                                                                  : f.default_value);
    }
    out += roff(text) + "\n";
  }
  return out;
}

void collect(const CLI::App& command, const CommandMeta& meta, std::vector<ManPage>& pages) {
  std::string path = command_path(command);
  std::string name = dashed(path);
  std::string upper = name;
  for (char& c : upper) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  std::string text = fmt::format(".TH \"{}\" \"1\" \"\" \"opm\" \"opm Manual\"\n", roff(upper));
  text += fmt::format(".SH NAME\n{} \\- {}\n", roff(name), roff(short_text(command, meta)));
  text += ".SH SYNOPSIS\n";
  if (is_runnable(command, meta)) {
    text += fmt::format(".B {}\n", roff(use_line(command, meta)));
    if (has_available_subcommands(command, meta)) {
      text += ".br\n";
    }
  }
  if (has_available_subcommands(command, meta)) {
    text += fmt::format(".B {} [command]\n", roff(path));
  }
  text += ".SH DESCRIPTION\n" + description(long_text(command, meta));
  if (auto why = deprecation(command, meta); !why.empty()) {
    text += ".SH DEPRECATED\n" + roff(why) + "\n";
  }
  auto local = local_flags(command, meta);
  text += ".SH OPTIONS\n" + options(local);
  auto inherited = inherited_flags(command, meta);
  std::string inherited_text = options(inherited);
  if (!inherited_text.empty()) {
    text += ".SH OPTIONS INHERITED FROM PARENT COMMANDS\n" + inherited_text;
  }
  std::string example = example_text(command, meta);
  if (!example.empty()) {
    text += ".SH EXAMPLE\n.nf\n" + roff(trim_trailing(example)) + "\n.fi\n";
  }

  text += k_environment;
  text += k_exit_status;

  std::vector<std::string> see_also;
  if (const CLI::App* parent = command.get_parent()) {
    see_also.push_back(fmt::format("\\fB{}(1)\\fP", roff(dashed(command_path(*parent)))));
  }
  std::vector<const CLI::App*> children;
  for (const CLI::App* sub : subcommands(command)) {
    if (is_available(*sub, meta)) {
      children.push_back(sub);
      see_also.push_back(fmt::format("\\fB{}(1)\\fP", roff(dashed(command_path(*sub)))));
    } else if (is_deprecated_but_usable(*sub, meta)) {
      children.push_back(sub); // its own page, not listed among the commands to use
    }
  }
  if (!see_also.empty()) {
    text += ".SH SEE ALSO\n" + util::join(see_also, ", ") + "\n";
  }
  pages.push_back({name + ".1", std::move(text)});
  for (const CLI::App* sub : children) {
    collect(*sub, meta, pages);
  }
}

} // namespace

std::vector<ManPage> man_pages(const CLI::App& root, const CommandMeta& meta) {
  std::vector<ManPage> pages;
  collect(root, meta, pages);
  return pages;
}

} // namespace opm::cli
