#include "bundle/properties.hpp"

#include <doctest/doctest.h>

using namespace opm::bundle;

namespace {
std::vector<std::string> types(const std::vector<opm::catalog::Property>& props) {
  std::vector<std::string> out;
  for (const auto& p : props) {
    out.push_back(p.type);
  }
  return out;
}
} // namespace

TEST_SUITE("bundle properties") {
  TEST_CASE("keeps the first of each type and exact value bytes") {
    auto set = property_set({{"a", "1"}, {"a", " 1"}, {"b", "1"}, {"a", "1"}, {"a", ""}});
    CHECK(set == std::vector<RawProperty>{{"a", "1"}, {"a", " 1"}, {"b", "1"}, {"a", ""}});
  }

  TEST_CASE("reads the CSV olm.properties annotation, keeping value bytes") {
    auto props = annotation_properties(
        R"([{"type": "olm.label", "value": {"b": 1, "a": 2}}, {"TYPE": "x", "Value": null}])");
    CHECK(props == std::vector<RawProperty>{{"olm.label", R"({"b": 1, "a": 2})"}, {"x", "null"}});
  }

  TEST_CASE("ignores an unparsable annotation but keeps ill-shaped elements as empty entries") {
    CHECK(annotation_properties("[{").empty());
    CHECK(annotation_properties(R"({"type": "x"})").empty());
    CHECK(annotation_properties(R"([1, {"type": 2, "value": 3}])") ==
          std::vector<RawProperty>{{"", ""}, {"", "3"}});
  }

  TEST_CASE("writes generated values compactly in Go's field order") {
    CHECK(package_value("a", "1.0.0", "") == R"({"packageName":"a","version":"1.0.0"})");
    CHECK(package_value("a", "1.0.0", "2") ==
          R"({"packageName":"a","version":"1.0.0","release":"2"})");
    CHECK(gvk_value("g<", "K", "v1") == R"({"group":"g<","kind":"K","version":"v1"})");
  }

  TEST_CASE("the template version is the first olm.package's") {
    CHECK(first_package_version({{"olm.gvk", "{}"},
                                 {"olm.package", R"({"packageName":"a","version":"1.0.0"})"},
                                 {"olm.package", R"({"version":"2.0.0"})"}}) == "1.0.0");
    CHECK(first_package_version({}) == "");
  }

  TEST_CASE("builds the property list: one package, unions of gvks, sorted, objects included") {
    std::vector<RawProperty> properties = {
        {"olm.package", R"({"packageName":"from-file","version":"0.0.1"})"},
        {"olm.gvk", R"({"group":"g","kind":"K","version":"v1"})"},
        {"olm.label", R"({"label":"\u003cx\u003e"})"},
        {"olm.package", R"({"packageName":"pkg","version":"1.0.0"})"},
    };
    std::vector<RawProperty> dependencies = {
        {"olm.package", R"({"packageName":"dep","version":">=1.0.0"})"},
        {"olm.gvk", R"({"group":"r","kind":"R","version":"v1"})"},
        {"olm.label", R"({"label": "y"})"},
    };
    std::vector<std::string> objects = {R"({"kind":"A"})"};
    opm::Result<std::string> version = std::string("1.0.0");
    opm::Result<std::string> release = std::string();
    ApiSet provided = {{"g", "v1", "K", "ks"}, {"a", "v2", "A", "as"}};
    opm::Result<ApiSet> required = ApiSet{{"r", "v1", "R", "rs"}};
    auto props = bundle_properties(
        {properties, dependencies, objects, "pkg", version, release, provided, required});
    REQUIRE(props);
    CHECK(types(*props) == std::vector<std::string>{"olm.bundle.object", "olm.gvk", "olm.gvk",
                                                    "olm.gvk.required", "olm.label", "olm.label",
                                                    "olm.package", "olm.package.required"});
    CHECK((*props)[0].value == opm::Json{{"data", "eyJraW5kIjoiQSJ9"}});
    CHECK((*props)[1].value["group"] == "a");
    CHECK((*props)[2].value["group"] == "g");
    CHECK((*props)[4].raw == R"({"label":"y"})");
    CHECK((*props)[5].raw == R"({"label":"\u003cx\u003e"})");
    CHECK((*props)[5].value["label"] == "<x>");
    CHECK((*props)[6].raw == R"({"packageName":"pkg","version":"1.0.0"})");
    CHECK((*props)[7].value == opm::Json{{"packageName", "dep"}, {"versionRange", ">=1.0.0"}});
  }

  TEST_CASE("reports a property value that does not decode, with its index") {
    std::vector<RawProperty> properties = {{"olm.label", "{}"}, {"olm.gvk", R"({"group": 1})"}};
    std::vector<RawProperty> none;
    std::vector<std::string> objects;
    opm::Result<std::string> version = std::string("1.0.0");
    ApiSet provided;
    opm::Result<ApiSet> required = ApiSet{};
    auto props =
        bundle_properties({properties, none, objects, "p", version, version, provided, required});
    REQUIRE_FALSE(props);
    CHECK(props.error().message() == "parse property[1] of type \"olm.gvk\": json: cannot "
                                     "unmarshal number into Go struct field GVK.group of type "
                                     "string");

    std::vector<RawProperty> bad_package = {{"olm.package", R"("x")"}};
    props =
        bundle_properties({none, bad_package, objects, "p", version, version, provided, required});
    REQUIRE_FALSE(props);
    CHECK(props.error().message() == "parse property[0] of type \"olm.package\": json: cannot "
                                     "unmarshal string into Go value of type property.Package");

    std::vector<RawProperty> no_value = {{"olm.gvk", ""}};
    props = bundle_properties({no_value, none, objects, "p", version, version, provided, required});
    REQUIRE_FALSE(props);
    CHECK(props.error().message() ==
          "parse property[0] of type \"olm.gvk\": unexpected end of JSON input");
  }

  TEST_CASE("an entry without a value passes through as null") {
    std::vector<RawProperty> properties = {{"custom", ""}};
    std::vector<RawProperty> none;
    std::vector<std::string> objects;
    opm::Result<std::string> version = std::string("1.0.0");
    ApiSet provided;
    opm::Result<ApiSet> required = ApiSet{};
    auto props =
        bundle_properties({properties, none, objects, "p", version, version, provided, required});
    REQUIRE(props);
    REQUIRE(props->size() == 2);
    CHECK((*props)[0].type == "custom");
    CHECK((*props)[0].raw == "null");
  }
}
