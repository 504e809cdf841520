#include "cmd/commands.hpp"
#include "json/writer.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "validate/run.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <sys/stat.h>

namespace opm::cmd {

namespace {

struct ValidateFlags {
  std::vector<std::string> args;
  std::string output;
};

Result<validate::ReportFormat> report_format(const std::string& output) {
  if (output.empty()) {
    return validate::ReportFormat::text;
  }
  if (output == "json") {
    return validate::ReportFormat::json;
  }
  if (output == "yaml") {
    return validate::ReportFormat::yaml;
  }
  if (output == "github") {
    return validate::ReportFormat::github;
  }
  if (output == "sarif") {
    return validate::ReportFormat::sarif;
  }
  if (output == "junit") {
    return validate::ReportFormat::junit;
  }
  return util::fail(
      Errc::usage, fmt::format("invalid --output value {}, expected (json|yaml|github|sarif|junit)",
                               util::go_quote(output)));
}

Result<void> check_directory(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    return util::fail(Errc::usage, fmt::format("stat {}: {}", dir, util::errno_text(errno)));
  }
  if (!S_ISDIR(st.st_mode)) {
    return util::fail(Errc::usage, fmt::format("{} is not a directory", util::go_quote(dir)));
  }
  return {};
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
  sub->add_option("-o,--output", flags->output,
                  "Output format for validation results (json|yaml|github|sarif|junit)");

  sub->callback([&ctx, &chosen, flags, sub] {
    chosen.command = sub;
    chosen.style = FatalStyle::logrus;
    chosen.run = [&ctx, flags]() -> Result<void> {
      if (flags->args.size() != 1) {
        return util::fail(Errc::usage,
                          fmt::format("accepts 1 arg(s), received {}", flags->args.size()));
      }
      const std::string& dir = flags->args.front();
      OPM_TRY(check_directory(dir));
      auto format = OPM_TRY(report_format(flags->output));
      return validate::run(dir, format, ctx.out, ctx.err);
    };
  });
}

} // namespace opm::cmd
