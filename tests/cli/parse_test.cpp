#include "cli/command.hpp"
#include "cli/parse.hpp"
#include "cli/usage.hpp"

#include <CLI/CLI.hpp>
#include <doctest/doctest.h>

#include <sstream>

using namespace opm::cli;

namespace {

// A root with one command, `t`, holding every kind of flag the parser knows.
struct Fixture {
  std::ostringstream out;
  std::ostringstream err;
  Context ctx{out, err, false, {}, {}};
  Action chosen;
  CLI::App root{"", "opm"};
  std::vector<std::string> args;
  std::string output = "json";
  std::vector<std::string> labels;
  bool verbose = false;
  CLI::Option* labels_option = nullptr;

  Fixture() {
    root.set_help_flag();
    root.option_defaults()->always_capture_default();
    ctx.meta.describe(&root, {.use = "opm", .short_text = "root", .args = Args::none()});
    auto* sub = add_command(root, ctx, {.use = "t <a>", .short_text = "test"}, &args);
    sub->add_option("-o,--output", output, "Output format");
    labels_option = sub->add_option("-l,--labels", labels, "Labels");
    sub->add_flag("-v,--verbose", verbose, "Verbose");
  }

  std::expected<CommandLine, CommandLineError> parse(std::vector<std::string> argv) {
    return parse_command_line(root, ctx.meta, argv);
  }

  // Parse as cobra would, then feed CLI11 the canonical argv.
  void apply(std::vector<std::string> argv) {
    auto line = parse(std::move(argv));
    REQUIRE(line);
    auto canonical = canonical_argv(*line);
    std::reverse(canonical.begin(), canonical.end());
    root.parse(std::move(canonical));
  }
};

} // namespace

TEST_SUITE("cli parse") {
  TEST_CASE("accepts pflag's spellings of a value") {
    for (const auto& argv :
         std::vector<std::vector<std::string>>{{"t", "-oyaml"},
                                               {"t", "-o=yaml"},
                                               {"t", "-o", "yaml"},
                                               {"t", "--output=yaml"},
                                               {"t", "--output", "yaml"},
                                               {"t", "-vo", "yaml"},
                                               {"t", "-o", "json", "-o", "yaml"}}) {
      Fixture f;
      f.apply(argv);
      CHECK(f.output == "yaml");
    }
  }

  TEST_CASE("flags may follow arguments and -- ends the flags") {
    Fixture f;
    f.apply({"t", "a", "-v", "--", "-h", "--output"});
    CHECK(f.verbose);
    CHECK(f.args == std::vector<std::string>{"a", "-h", "--output"});
  }

  TEST_CASE("slice flags split CSV values and never swallow later arguments") {
    Fixture f;
    f.apply({"t", "-l", "a=1,\"b=2,3\"", "--labels=c", "--", "-h", "x"});
    CHECK(f.labels == std::vector<std::string>{"a=1", "b=2,3", "c"});
    CHECK(f.args == std::vector<std::string>{"-h", "x"});
  }

  TEST_CASE("boolean flags take =value only") {
    Fixture f;
    f.apply({"t", "--verbose=false", "true"});
    CHECK_FALSE(f.verbose);
    CHECK(f.args == std::vector<std::string>{"true"});
  }

  TEST_CASE("reports flag errors with pflag's texts") {
    Fixture f;
    CHECK(f.parse({"t", "--nope"}).error().message == "unknown flag: --nope");
    CHECK(f.parse({"t", "-vx"}).error().message == "unknown shorthand flag: 'x' in -x");
    CHECK(f.parse({"t", "-o"}).error().message == "flag needs an argument: 'o' in -o");
    CHECK(f.parse({"t", "--output"}).error().message == "flag needs an argument: --output");
    CHECK(f.parse({"t", "--verbose=maybe"}).error().message ==
          "invalid argument \"maybe\" for \"-v, --verbose\" flag: strconv.ParseBool: parsing "
          "\"maybe\": invalid syntax");
    CHECK(f.parse({"t", "-l", "z=\"q\""}).error().message ==
          "invalid argument \"z=\\\"q\\\"\" for \"-l, --labels\" flag: parse error on line 1, "
          "column 3: bare \" in non-quoted-field");
    CHECK(f.parse({"t", "---x"}).error().message == "bad flag syntax: ---x");
  }

  TEST_CASE("finds subcommands past flags, as cobra's Find does") {
    Fixture f;
    CHECK(f.parse({"-o", "x", "t"})->command->get_name() == "t");
    // Before the command is known, --help is not a flag yet and takes the next word.
    CHECK(f.parse({"--help", "t"})->command == &f.root);
    CHECK(f.parse({"t", "--help"})->help);
  }

  TEST_CASE("checks argument counts with cobra's messages") {
    Fixture f;
    auto line = f.parse({"t", "a", "b"});
    REQUIRE(line);
    CHECK_FALSE(check_command_line(*line, f.ctx.meta)); // derived rule: any number
    auto root_line = f.parse({"x"});
    CHECK(check_command_line(*root_line, f.ctx.meta) == "unknown command \"x\" for \"opm\"");
    CHECK(Args::exact(1).check({"a", "b"}, "opm init") == "accepts 1 arg(s), received 2");
    CHECK(Args::minimum(1).check({}, "opm render") ==
          "requires at least 1 arg(s), only received 0");
    CHECK(Args::range(1, 2).check({"a", "b", "c"}, "x") ==
          "accepts between 1 and 2 arg(s), received 3");
    CHECK(Args::maximum(1).check({"a", "b"}, "x") == "accepts at most 1 arg(s), received 2");
  }

  TEST_CASE("deprecated flags print pflag's notice each time they are set") {
    Fixture f;
    f.ctx.meta.deprecate(f.labels_option, "use --other instead");
    auto line = f.parse({"t", "-l", "a", "--labels", "b"});
    REQUIRE(line);
    CHECK(line->notices == "Flag --labels has been deprecated, use --other instead\n"
                           "Flag --labels has been deprecated, use --other instead\n");
  }

  TEST_CASE("mutually exclusive flags fail after the argument check") {
    Fixture f;
    f.ctx.meta.mutually_exclusive(f.root.get_subcommand("t"), {"output", "verbose"});
    auto line = f.parse({"t", "-v", "-o", "x"});
    REQUIRE(line);
    CHECK(check_command_line(*line, f.ctx.meta) ==
          "if any flags in the group [output verbose] are set none of the others can be; "
          "[output verbose] were all set");
  }
}

TEST_SUITE("cli usage") {
  TEST_CASE("aligns the flag table as pflag does, with quoted string defaults") {
    Fixture f;
    CHECK(usage_text(*f.root.get_subcommand("t"), f.ctx.meta) ==
          "Usage:\n"
          "  opm t <a> [flags]\n"
          "\n"
          "Flags:\n"
          "  -h, --help             help for t\n"
          "  -l, --labels strings   Labels\n"
          "  -o, --output string    Output format (default \"json\")\n"
          "  -v, --verbose          Verbose\n");
  }

  TEST_CASE("root help lists available commands and points to their help") {
    Fixture f;
    CHECK(help_text(f.root, f.ctx.meta) == "root\n"
                                           "\n"
                                           "Usage:\n"
                                           "  opm [flags]\n"
                                           "  opm [command]\n"
                                           "\n"
                                           "Available Commands:\n"
                                           "  t           test\n"
                                           "\n"
                                           "Flags:\n"
                                           "  -h, --help   help for opm\n"
                                           "\n"
                                           "Use \"opm [command] --help\" for more information "
                                           "about a command.\n");
  }

  TEST_CASE("alpha flags are hidden unless HELP_ALPHA and carry the ALPHA prefix") {
    Fixture f;
    std::string tmpl;
    f.root.get_subcommand("t")->add_option("--alpha-image-ref-template", tmpl, "Template");
    auto* t = f.root.get_subcommand("t");
    CHECK(usage_text(*t, f.ctx.meta).find("alpha-image-ref-template") == std::string::npos);
    f.ctx.meta.show_alpha = true;
    CHECK(usage_text(*t, f.ctx.meta)
              .find("      --alpha-image-ref-template string   (ALPHA: This flag will be removed "
                    "or renamed in a future release, potentially without notice) Template\n") !=
          std::string::npos);
  }

  TEST_CASE("multi-line flag help is indented under the text column") {
    FlagView a;
    a.name = "migrate-level";
    a.type_name = "string";
    a.usage = "Name of the last migration\nfirst\nsecond";
    CHECK(flag_usages({a}) == "      --migrate-level string   Name of the last migration\n"
                              "                               first\n"
                              "                               second\n");
  }
}
