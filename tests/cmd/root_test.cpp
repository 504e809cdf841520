#include "cli/execute.hpp"
#include "cmd/commands.hpp"

#include <CLI/CLI.hpp>
#include <doctest/doctest.h>

#include <sstream>

using namespace opm::cmd;

TEST_SUITE("cmd root") {
  TEST_CASE("a usage error prints cobra's Error line, the usage block and a blank line") {
    std::ostringstream out;
    std::ostringstream err;
    Context ctx{{out, err, false, {}, {}}};
    Action chosen;
    CLI::App app{"", "opm"};
    build_root(app, ctx, chosen);
    CHECK(opm::cli::execute(app, ctx, chosen, {"init", "a", "b"}) == 1);
    CHECK(out.str().empty());
    CHECK(err.str().starts_with("Error: accepts 1 arg(s), received 2\nUsage:\n  opm init "
                                "<packageName> [flags]\n\nFlags:\n"));
    CHECK(err.str().ends_with("while pulling bundles\n\n"));
  }

  TEST_CASE("a group without work of its own prints its help on stdout") {
    std::ostringstream out;
    std::ostringstream err;
    Context ctx{{out, err, false, {}, {}}};
    Action chosen;
    CLI::App app{"", "opm"};
    build_root(app, ctx, chosen);
    CHECK(opm::cli::execute(app, ctx, chosen, {"generate", "whatever"}) == 0);
    CHECK(out.str().starts_with("Generate various artifacts for file-based catalogs\n\nUsage:\n"
                                "  opm generate [command]\n"));
    CHECK(err.str().empty());
  }
}
