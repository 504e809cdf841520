#include "validate/validate.hpp"

#include "catalog/load.hpp"
#include "catalog/write.hpp"
#include "cmd/commands.hpp"
#include "json/writer.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "yaml/value.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <sys/stat.h>

namespace opm::cmd {

namespace {

struct ValidateFlags {
  std::vector<std::string> args;
  std::string output;
};

// The -o json|yaml report: {"passed": bool, "error": {"message": ...}}.
std::string report(const std::string& output, const std::string& message) {
  bool passed = message.empty();
  if (output == "json") {
    std::string text = fmt::format("{{\n  \"passed\": {}", passed ? "true" : "false");
    if (!passed) {
      text += ",\n  \"error\": {\n    \"message\": ";
      json::append(text, Json(message), {.indent = 0, .escape_html = true});
      text += "\n  }";
    }
    text += "\n}\n";
    return text;
  }
  Json doc = Json::object();
  doc["passed"] = passed;
  if (!passed) {
    doc["error"] = {{"message", message}};
  }
  std::string text;
  yaml::append(text, doc);
  text += "\n";
  return text;
}

} // namespace

void add_validate(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<ValidateFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "validate <directory>",
                           .short_text = "Validate the declarative index config",
                           .long_text = "Validate the declarative config JSON file(s) in a given "
                                        "directory",
                           .args = Args::exact(1)},
                          &flags->args);
  sub->add_option("-o,--output", flags->output, "Output format for validation results (json|yaml)");

  sub->callback([&ctx, &chosen, flags, sub] {
    chosen.command = sub;
    chosen.style = FatalStyle::logrus;
    chosen.run = [&ctx, &chosen, flags]() -> Result<void> {
      if (flags->args.size() != 1) {
        return util::fail(Errc::usage,
                          fmt::format("accepts 1 arg(s), received {}", flags->args.size()));
      }
      const std::string& dir = flags->args.front();
      struct stat st {};
      if (::stat(dir.c_str(), &st) != 0) {
        return util::fail(Errc::usage, fmt::format("stat {}: {}", dir, util::errno_text(errno)));
      }
      if (!S_ISDIR(st.st_mode)) {
        return util::fail(Errc::usage, fmt::format("{} is not a directory", util::go_quote(dir)));
      }

      std::optional<Error> failure;
      std::vector<validate::Finding> findings;
      auto cfg = catalog::load_dir(dir);
      if (!cfg) {
        failure = std::move(cfg).error();
      } else {
        auto outcome = validate::check(*cfg);
        if (!outcome.passed()) {
          findings = std::move(outcome.findings);
          // A single finding already carries the location; a tree names several.
          std::optional<Location> where;
          if (findings.size() == 1 && outcome.message.find('\n') == std::string::npos) {
            where = findings.front().where;
            findings.clear();
          }
          failure = Error(Errc::invalid, outcome.message, where);
        }
      }

      if (!flags->output.empty()) {
        if (flags->output != "json" && flags->output != "yaml") {
          return util::fail(Errc::usage,
                            fmt::format("invalid --output value {}, expected (json|yaml)",
                                        util::go_quote(flags->output)));
        }
        ctx.out << report(flags->output, failure ? failure->message() : std::string());
        if (failure) {
          return util::fail(Errc::invalid, "", {}); // reported on stdout; exit 1, quietly
        }
        return {};
      }
      if (failure) {
        chosen.before_fatal = [&ctx, findings = std::move(findings)] {
          for (const auto& f : findings) {
            ctx.err << f.where.describe() << ": " << f.text << "\n";
          }
        };
        return std::unexpected(std::move(*failure));
      }
      return {};
    };
  });
}

} // namespace opm::cmd
