#include "catalog/property.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace opm::catalog;
using opm::Json;

namespace {

Json json(std::string_view text) { return Json::parse(text); }

// Go's message for one value of a property type ("" when it decodes).
std::string value_error(std::string_view type, std::string_view value) {
  auto error = property::check_value(type, json(value));
  return error.value_or("");
}

std::string parse_error(const std::vector<Property>& props) {
  auto parsed = property::parse(props);
  REQUIRE_FALSE(parsed.has_value());
  return parsed.error().message();
}

} // namespace

TEST_SUITE("property values") {
  TEST_CASE("decodes olm.package with members matched ignoring case") {
    auto pkg = property::decode_package(
        json(R"({"PackageName":"a","VERSION":"1.0.0","release":"2","extra":[1]})"));
    REQUIRE(pkg.has_value());
    CHECK(pkg->package_name == "a");
    CHECK(pkg->version == "1.0.0");
    CHECK(pkg->release == "2");
  }

  TEST_CASE("folds the Kelvin sign onto k in member names, as Go does") {
    auto pkg = property::decode_package(json("{\"pac\u212AageName\":\"a\"}"));
    REQUIRE(pkg.has_value());
    CHECK(pkg->package_name == "a");
  }

  TEST_CASE("lets the last of differently cased members win, but not a null one") {
    auto pkg = property::decode_package(json(R"({"Version":"1.0.0","version":null})"));
    REQUIRE(pkg.has_value());
    CHECK(pkg->version == "1.0.0");
    pkg = property::decode_package(json(R"({"Version":"1.0.0","version":"2.0.0"})"));
    CHECK(pkg->version == "2.0.0");
  }

  TEST_CASE("accepts null as an empty value") {
    auto pkg = property::decode_package(json("null"));
    REQUIRE(pkg.has_value());
    CHECK(pkg->package_name.empty());
  }

  TEST_CASE("reports a value of the wrong JSON type like Go's decoder") {
    CHECK(value_error("olm.package", "[]") ==
          "json: cannot unmarshal array into Go value of type property.Package");
    CHECK(value_error("olm.package", "\"a\"") ==
          "json: cannot unmarshal string into Go value of type property.Package");
    CHECK(value_error("olm.package", "1") ==
          "json: cannot unmarshal number into Go value of type property.Package");
    CHECK(value_error("olm.package", "true") ==
          "json: cannot unmarshal bool into Go value of type property.Package");
    CHECK(value_error("olm.package", R"({"packageName":"a","version":1})") ==
          "json: cannot unmarshal number into Go struct field Package.version of type string");
    CHECK(value_error("olm.gvk", R"({"group":[]})") ==
          "json: cannot unmarshal array into Go struct field GVK.group of type string");
    CHECK(value_error("olm.gvk.required", R"({"kind":{}})") ==
          "json: cannot unmarshal object into Go struct field GVKRequired.kind of type string");
    CHECK(value_error("olm.package.required", R"({"versionRange":false})") ==
          "json: cannot unmarshal bool into Go struct field PackageRequired.versionRange of type "
          "string");
    CHECK(value_error("olm.channel", R"({"channelName":2})") ==
          "json: cannot unmarshal number into Go struct field Channel.channelName of type string");
  }

  TEST_CASE("reports the first bad member in member order") {
    CHECK(value_error("olm.package", R"({"version":true,"packageName":1})") ==
          "json: cannot unmarshal number into Go struct field Package.packageName of type string");
  }

  TEST_CASE("checks bundle object data as base64") {
    CHECK(value_error("olm.bundle.object", R"({"data":"YWJj"})").empty());
    CHECK(value_error("olm.bundle.object", R"({"data":"YW=="})").empty());
    CHECK(value_error("olm.bundle.object", R"({"data":"YWJj\r\nYWI="})").empty());
    CHECK(value_error("olm.bundle.object", R"({"data":""})").empty());
    CHECK(value_error("olm.bundle.object", R"({"data":"not base64"})") ==
          "illegal base64 data at input byte 3");
    CHECK(value_error("olm.bundle.object", R"({"data":"YWJ"})") ==
          "illegal base64 data at input byte 0");
    CHECK(value_error("olm.bundle.object", R"({"data":"YW="})") ==
          "illegal base64 data at input byte 3");
    CHECK(value_error("olm.bundle.object", R"({"data":"Y==="})") ==
          "illegal base64 data at input byte 1");
    CHECK(value_error("olm.bundle.object", R"({"data":"YWJjYQ==YWJj"})") ==
          "illegal base64 data at input byte 8");
    CHECK(value_error("olm.bundle.object", R"({"data":"YW\nJ"})") ==
          "illegal base64 data at input byte 1");
    CHECK(value_error("olm.bundle.object", R"({"data":"YW=\n="})").empty());
    CHECK(value_error("olm.bundle.object", R"({"data":"YW=\nx"})") ==
          "illegal base64 data at input byte 3");
    CHECK(value_error("olm.bundle.object", R"({"data":"YWI=\n"})").empty());
    CHECK(value_error("olm.bundle.object", R"({"data":"YWI=\nYWJj"})") ==
          "illegal base64 data at input byte 5");
    CHECK(value_error("olm.bundle.object", R"({"data":5})") ==
          "json: cannot unmarshal number into Go struct field BundleObject.data of type []uint8");
  }

  TEST_CASE("accepts bundle object data as an array of bytes") {
    CHECK(value_error("olm.bundle.object", R"({"data":[1,255]})").empty());
    CHECK(value_error("olm.bundle.object", R"({"data":[256]})") ==
          "json: cannot unmarshal number 256 into Go struct field BundleObject.data of type uint8");
    CHECK(value_error("olm.bundle.object", R"({"data":[1.5]})") ==
          "json: cannot unmarshal number 1.5 into Go struct field BundleObject.data of type uint8");
    CHECK(value_error("olm.bundle.object", R"({"data":["a"]})") ==
          "json: cannot unmarshal string into Go struct field BundleObject.data of type uint8");
  }

  TEST_CASE("checks olm.csv.metadata against the CSV metadata structure") {
    CHECK(value_error("olm.csv.metadata",
                      R"({"annotations":{"a":"b"},"displayName":"X","installModes":[
                           {"type":"OwnNamespace","supported":true}],"keywords":["k"],
                           "provider":{"name":"p"},"nativeAPIs":[{"group":"g"}],
                           "crdDescriptions":{"owned":[{"name":"n","specDescriptors":[
                           {"path":"p","x-descriptors":["a"],"value":{"any":[1]}}]}]},
                           "apiServiceDefinitions":{"owned":[{"containerPort":443}]},
                           "unknown":1})")
              .empty());
    CHECK(value_error("olm.csv.metadata", R"({"annotations":{"a":1}})") ==
          "json: cannot unmarshal number into Go struct field CSVMetadata.annotations of type "
          "string");
    CHECK(value_error("olm.csv.metadata", R"({"annotations":[]})") ==
          "json: cannot unmarshal array into Go struct field CSVMetadata.annotations of type "
          "map[string]string");
    CHECK(value_error("olm.csv.metadata",
                      R"({"installModes":[{"type":"OwnNamespace","supported":"yes"}]})") ==
          "json: cannot unmarshal string into Go struct field InstallMode.installModes.supported "
          "of type bool");
    CHECK(value_error("olm.csv.metadata", R"({"installModes":[{"type":1}]})") ==
          "json: cannot unmarshal number into Go struct field InstallMode.installModes.type of "
          "type v1alpha1.InstallModeType");
    CHECK(value_error("olm.csv.metadata", R"({"installModes":["x"]})") ==
          "json: cannot unmarshal string into Go struct field CSVMetadata.installModes of type "
          "v1alpha1.InstallMode");
    CHECK(value_error("olm.csv.metadata", R"({"provider":"x"})") ==
          "json: cannot unmarshal string into Go struct field CSVMetadata.provider of type "
          "v1alpha1.AppLink");
    CHECK(value_error("olm.csv.metadata", R"({"nativeAPIs":[1]})") ==
          "json: cannot unmarshal number into Go struct field CSVMetadata.nativeAPIs of type "
          "v1.GroupVersionKind");
    CHECK(value_error("olm.csv.metadata", R"({"keywords":"k"})") ==
          "json: cannot unmarshal string into Go struct field CSVMetadata.keywords of type "
          "[]string");
    CHECK(value_error("olm.csv.metadata",
                      R"({"apiServiceDefinitions":{"owned":[{"containerPort":1.5}]}})") ==
          "json: cannot unmarshal number 1.5 into Go struct field "
          "APIServiceDescription.apiServiceDefinitions.owned.containerPort of type int32");
    CHECK(value_error("olm.csv.metadata",
                      R"({"apiServiceDefinitions":{"owned":[{"containerPort":3e9}]}})") ==
          "json: cannot unmarshal number 3000000000 into Go struct field "
          "APIServiceDescription.apiServiceDefinitions.owned.containerPort of type int32");
    CHECK(value_error("olm.csv.metadata",
                      R"({"crdDescriptions":{"required":[{"statusDescriptors":[
                           {"x-descriptors":[7]}]}]}})") ==
          "json: cannot unmarshal number into Go struct field "
          "StatusDescriptor.crdDescriptions.required.statusDescriptors.x-descriptors of type "
          "string");
  }

  TEST_CASE("prints float numbers as Go does in messages") {
    CHECK(value_error("olm.csv.metadata",
                      R"({"apiServiceDefinitions":{"owned":[{"containerPort":1e21}]}})") ==
          "json: cannot unmarshal number 1e+21 into Go struct field "
          "APIServiceDescription.apiServiceDefinitions.owned.containerPort of type int32");
    CHECK(value_error("olm.csv.metadata",
                      R"({"apiServiceDefinitions":{"owned":[{"containerPort":1e-7}]}})") ==
          "json: cannot unmarshal number 1e-7 into Go struct field "
          "APIServiceDescription.apiServiceDefinitions.owned.containerPort of type int32");
  }

  TEST_CASE("accepts any value for other property types") {
    CHECK(value_error("olm.constraint", R"({"cel":{"rule":"x"}})").empty());
    CHECK(value_error("custom", "[1,2]").empty());
  }

  TEST_CASE("fails a missing value with Go's end-of-input message") {
    Json missing(Json::value_t::discarded);
    CHECK(property::check_value("olm.package", missing) == "unexpected end of JSON input");
    CHECK(property::check_value("custom", missing) == "unexpected end of JSON input");
  }

  TEST_CASE("parses a property list, naming the first bad property") {
    std::vector<Property> props{
        {"olm.gvk", json(R"({"group":"g","kind":"K","version":"v1"})")},
        {"olm.package", json(R"([])")},
    };
    CHECK(parse_error(props) == "parse property[1] of type \"olm.package\": json: cannot "
                                "unmarshal array into Go value of type property.Package");
  }

  TEST_CASE("sorts parsed properties by type") {
    std::vector<Property> props{
        {"olm.package", json(R"({"packageName":"a","version":"1.0.0"})")},
        {"olm.gvk", json(R"({"group":"g","kind":"K","version":"v1"})")},
        {"olm.gvk.required", json(R"({"group":"g2","kind":"K2","version":"v2"})")},
        {"olm.package.required", json(R"({"packageName":"b","versionRange":">=1.0.0"})")},
        {"olm.bundle.object", json(R"({"data":"e30="})")},
        {"olm.csv.metadata", json(R"({"displayName":"A"})")},
        {"olm.channel", json(R"({"channelName":"stable"})")},
        {"olm.constraint", json(R"({})")},
    };
    auto parsed = property::parse(props);
    REQUIRE(parsed.has_value());
    REQUIRE(parsed->packages.size() == 1);
    CHECK(parsed->packages[0].version == "1.0.0");
    REQUIRE(parsed->gvks.size() == 1);
    CHECK(parsed->gvks[0].kind == "K");
    REQUIRE(parsed->gvks_required.size() == 1);
    CHECK(parsed->gvks_required[0].group == "g2");
    REQUIRE(parsed->packages_required.size() == 1);
    CHECK(parsed->packages_required[0].version_range == ">=1.0.0");
    REQUIRE(parsed->bundle_objects.size() == 1);
    CHECK(parsed->bundle_objects[0].data == "e30=");
    REQUIRE(parsed->csv_metadatas.size() == 1);
    CHECK(parsed->csv_metadatas[0].value == &props[5].value);
    REQUIRE(parsed->channels.size() == 1);
    CHECK(parsed->channels[0].channel_name == "stable");
    REQUIRE(parsed->others.size() == 1);
    CHECK(parsed->others[0] == &props[7]);
  }
}
