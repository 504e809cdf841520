#include "validate/ci_report.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace opm;
using validate::CiFormat;
using validate::CiReport;

namespace {

CiReport two_findings() {
  return CiReport{.command = "alpha diff",
                  .rules = {{"upgrade-path", "a path to the head"}},
                  .packages = {"a", "b", "c"},
                  .findings = {{"upgrade-path", "bundle \"x\": 50% <gone>, really\nsee: docs",
                                Location{"cat/a,b:c.yaml", 12, 3}, "a"},
                               {"upgrade-path", "no place", Location{}, "b"}}};
}

} // namespace

TEST_SUITE("ci report") {
  TEST_CASE("github annotations escape properties and data as the runner reads them") {
    CHECK(validate::ci_report_text(CiFormat::github, two_findings()) ==
          "::error file=cat/a%2Cb%3Ac.yaml,line=12,col=3,title=opm alpha diff%3A "
          "upgrade-path::bundle \"x\": 50%25 <gone>, really%0Asee: docs\n"
          "::error title=opm alpha diff%3A upgrade-path::no place\n");
  }

  TEST_CASE("github prints nothing when there is nothing to report") {
    CiReport empty{.command = "validate", .rules = {}, .packages = {"a"}, .findings = {}};
    CHECK(validate::ci_report_text(CiFormat::github, empty).empty());
  }

  TEST_CASE("sarif has one result per finding, with its region and rule") {
    auto doc = nlohmann::json::parse(validate::ci_report_text(CiFormat::sarif, two_findings()));
    CHECK(doc["version"] == "2.1.0");
    REQUIRE(doc["runs"].size() == 1);
    const auto& run = doc["runs"][0];
    CHECK(run["tool"]["driver"]["name"] == "opm");
    CHECK(run["tool"]["driver"]["rules"][0]["id"] == "upgrade-path");
    REQUIRE(run["results"].size() == 2);
    const auto& first = run["results"][0];
    CHECK(first["ruleId"] == "upgrade-path");
    CHECK(first["level"] == "error");
    CHECK(first["message"]["text"] == "bundle \"x\": 50% <gone>, really\nsee: docs");
    const auto& physical = first["locations"][0]["physicalLocation"];
    CHECK(physical["artifactLocation"]["uri"] == "cat/a%2Cb%3Ac.yaml");
    CHECK(physical["region"]["startLine"] == 12);
    CHECK(physical["region"]["startColumn"] == 3);
    CHECK_FALSE(run["results"][1].contains("locations"));
  }

  TEST_CASE("junit has a test case per package, failing ones with every finding") {
    CHECK(validate::ci_report_text(CiFormat::junit, two_findings()) ==
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<testsuites name=\"opm alpha diff\" tests=\"3\" failures=\"2\">\n"
          "  <testsuite name=\"opm alpha diff\" tests=\"3\" failures=\"2\" errors=\"0\">\n"
          "    <testcase classname=\"opm.alpha.diff\" name=\"a\">\n"
          "      <failure type=\"upgrade-path\" message=\"bundle &quot;x&quot;: 50% &lt;gone&gt;, "
          "really\">cat/a,b:c.yaml:12:3: bundle &quot;x&quot;: 50% &lt;gone&gt;, really\n"
          "see: docs</failure>\n"
          "    </testcase>\n"
          "    <testcase classname=\"opm.alpha.diff\" name=\"b\">\n"
          "      <failure type=\"upgrade-path\" message=\"no place\">no place</failure>\n"
          "    </testcase>\n"
          "    <testcase classname=\"opm.alpha.diff\" name=\"c\"/>\n"
          "  </testsuite>\n"
          "</testsuites>\n");
  }
}
