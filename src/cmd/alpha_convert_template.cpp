#include "cmd/commands.hpp"
#include "template/template.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <iterator>
#include <memory>

namespace opm::cmd {

namespace {

struct ConvertFlags {
  std::vector<std::string> args;
  std::string output = "json";
};

// Upstream reports any open or read failure as the input's name only.
Result<std::string> read_input(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "-") {
    return std::string(std::istreambuf_iterator<char>(std::cin), {});
  }
  auto opened = util::OpenFile::open(args[0]);
  auto text = opened ? opened->read_all() : Result<std::string>(std::unexpected(opened.error()));
  if (!text) {
    return util::fail(Errc::usage,
                      fmt::format("unable to open input: {}", util::go_quote(args[0])));
  }
  return text;
}

Result<void> run_convert(Context& ctx, const ConvertFlags& flags, std::string_view type) {
  templates::ConvertFormat format;
  if (flags.output == "json") {
    format = templates::ConvertFormat::json;
  } else if (flags.output == "yaml") {
    format = templates::ConvertFormat::yaml;
  } else {
    // A fatal log line, as upstream's log.Fatalf.
    return util::fail(Errc::invalid, fmt::format("invalid --output value {}, expected (json|yaml)",
                                                 util::go_quote(flags.output)));
  }
  auto input = OPM_TRY(read_input(flags.args));
  auto text = templates::convert(input, type, format);
  if (!text) {
    return util::fail(Errc::usage, "converting: " + text.error().message());
  }
  ctx.out << *text;
  return {};
}

void add_convert(CLI::App& parent, Context& ctx, Action& chosen, const std::string& type) {
  auto flags = std::make_shared<ConvertFlags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = type + " [<fbc-file> | -]",
       .short_text = fmt::format("Generate a {} template from existing FBC", type),
       .long_text = fmt::format("Generate a {0} template from existing FBC.\n\n"
                                "This command outputs a {0} catalog template to STDOUT from "
                                "input FBC.\n"
                                "If no argument is specified or is '-' input is assumed from "
                                "STDIN.\n",
                                type),
       .args = Args::maximum(1)},
      &flags->args);
  sub->add_option("-o,--output", flags->output, "Output format (json|yaml)");
  sub->callback([&ctx, &chosen, flags, sub, type] {
    chosen.command = sub;
    chosen.style = FatalStyle::go_log;
    chosen.run = [&ctx, flags, type]() { return run_convert(ctx, *flags, type); };
  });
}

} // namespace

void add_alpha_convert_template(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* group = add_command(parent, ctx,
                            {.use = "convert-template",
                             .short_text = "Convert existing FBC to a supported template type",
                             .runnable = false});
  add_convert(*group, ctx, chosen, "basic");
  add_convert(*group, ctx, chosen, "substitutes");
}

} // namespace opm::cmd
