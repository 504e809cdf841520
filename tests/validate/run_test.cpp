#include "support/temp_dir.hpp"
#include "validate/run.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

using opm::Errc;
using opm::test::TempDir;
using opm::validate::ReportFormat;

namespace {

constexpr std::string_view k_package =
    R"({"schema":"olm.package","name":"a","defaultChannel":"s"})";
constexpr std::string_view k_channel =
    R"({"schema":"olm.channel","package":"a","name":"s","entries":[{"name":"a.v1"}]})";
constexpr std::string_view k_bundle_without_image =
    R"({"schema":"olm.bundle","package":"a","name":"a.v1","properties":[)"
    R"({"type":"olm.package","value":{"packageName":"a","version":"1.0.0"}}]})";
constexpr std::string_view k_bundle =
    R"({"schema":"olm.bundle","package":"a","name":"a.v1","image":"x","properties":[)"
    R"({"type":"olm.package","value":{"packageName":"a","version":"1.0.0"}}]})";

// k_bundle with an olm.csv.metadata property (index 1) whose value is `metadata`.
std::string bundle_with_csv_metadata(std::string_view metadata) {
  return std::string(k_bundle.substr(0, k_bundle.size() - 2)) +
         R"(,{"type":"olm.csv.metadata","value":)" + std::string(metadata) + "}]}";
}

std::string lines(std::initializer_list<std::string_view> docs) {
  std::string text;
  for (auto doc : docs) {
    text.append(doc).append("\n");
  }
  return text;
}

struct Run {
  opm::Result<void> result;
  std::string out;
  std::string err;
};

Run run(const TempDir& dir, ReportFormat format) {
  std::ostringstream out;
  std::ostringstream err;
  auto result = opm::validate::run(dir.path().string(), format, out, err);
  return {std::move(result), out.str(), err.str()};
}

} // namespace

TEST_SUITE("validate run") {
  TEST_CASE("a valid catalog passes in every format") {
    TempDir dir;
    dir.write("index.json", lines({k_package, k_channel, k_bundle}));
    auto text = run(dir, ReportFormat::text);
    CHECK(text.result.has_value());
    CHECK(text.out.empty());
    CHECK(text.err.empty());
    CHECK(run(dir, ReportFormat::json).out == "{\n  \"passed\": true\n}\n");
    CHECK(run(dir, ReportFormat::yaml).out == "passed: true\n\n");
  }

  TEST_CASE("several findings are listed with their locations before the failure") {
    TempDir dir;
    auto file = dir.write("index.json", lines({k_package, k_channel, k_bundle_without_image}));
    auto text = run(dir, ReportFormat::text);
    REQUIRE_FALSE(text.result.has_value());
    CHECK(text.result.error().code() == Errc::invalid);
    CHECK(text.result.error().message() == "invalid index:\n"
                                           "└── invalid package \"a\":\n"
                                           "    └── invalid channel \"s\":\n"
                                           "        └── invalid bundle \"a.v1\":\n"
                                           "            └── bundle image must be set");
    CHECK(text.err == file.string() + ":3: invalid bundle \"a.v1\": bundle image must be set\n");
    CHECK(text.out.empty());
  }

  TEST_CASE("a report carries the located failure, which then comes back without a message") {
    TempDir dir;
    auto file = dir.write("index.json", "{\"schema\":\"olm.package\",\n");
    auto json = run(dir, ReportFormat::json);
    REQUIRE_FALSE(json.result.has_value());
    CHECK(json.result.error().message().empty());
    CHECK(json.out == "{\n  \"passed\": false,\n  \"error\": {\n    \"message\": \"" +
                          file.string() + ":2:1: unexpected EOF\"\n  }\n}\n");
    CHECK(json.err.empty());
    CHECK(run(dir, ReportFormat::yaml).out ==
          "error:\n  message: '" + file.string() + ":2:1: unexpected EOF'\npassed: false\n\n");
  }

  TEST_CASE("a report lists every finding with its location before upstream's tree") {
    TempDir dir;
    auto file = dir.write("index.json", lines({k_package, k_channel, k_bundle_without_image}));
    auto json = run(dir, ReportFormat::json);
    REQUIRE_FALSE(json.result.has_value());
    CHECK(json.out ==
          "{\n  \"passed\": false,\n  \"error\": {\n    \"message\": \"" + file.string() +
              ":3: invalid bundle \\\"a.v1\\\": bundle image must be set\\n"
              "invalid index:\\n└── invalid package \\\"a\\\":\\n    └── invalid channel "
              "\\\"s\\\":\\n        └── invalid bundle \\\"a.v1\\\":\\n            └── "
              "bundle image must be set\"\n  }\n}\n");
  }

  TEST_CASE("a CSV metadata value of the wrong shape fails as the model's property check") {
    TempDir dir;
    auto file = dir.write(
        "index.json",
        lines({k_package, k_channel, bundle_with_csv_metadata(R"({"annotations":{"a":1}})")}));
    auto text = run(dir, ReportFormat::text);
    REQUIRE_FALSE(text.result.has_value());
    CHECK(text.result.error().describe() ==
          file.string() +
              ":3: parse properties for bundle \"a.v1\": parse property[1] of type "
              "\"olm.csv.metadata\": json: cannot unmarshal number into Go struct field "
              "CSVMetadata.annotations of type string");
  }

  TEST_CASE("a catalog of CSV metadata passes once its values are checked") {
    TempDir dir;
    dir.write("index.json",
              lines({k_package, k_channel,
                     bundle_with_csv_metadata(R"({"annotations":{"a":"b"},"displayName":"A"})")}));
    auto text = run(dir, ReportFormat::text);
    CHECK(text.result.has_value());
    CHECK(text.err.empty());
  }

  TEST_CASE("a load error keeps its location") {
    TempDir dir;
    auto file = dir.write("index.json", "{\"schema\":\"olm.package\",\n");
    auto text = run(dir, ReportFormat::text);
    REQUIRE_FALSE(text.result.has_value());
    CHECK(text.result.error().describe() == file.string() + ":2:1: unexpected EOF");
    CHECK(text.err.empty());
  }
}
