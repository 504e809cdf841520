#include "catalog/typed_decode.hpp"

#include <doctest/doctest.h>

using namespace opm::catalog;
using opm::Json;

TEST_SUITE("typed decoding") {
  TEST_CASE("package fields match case-insensitively and unknown members are dropped") {
    auto p = decode_package(Json::parse(
        R"({"schema":"olm.package","Name":"a","defaultchannel":"s","description":"d","extra":1})"));
    REQUIRE(p);
    CHECK(p->name == "a");
    CHECK(p->default_channel == "s");
    CHECK(p->description == "d");
    CHECK_FALSE(p->icon);
  }

  TEST_CASE("icon data is base64-decoded; null data stays absent") {
    auto p = decode_package(
        Json::parse(R"({"icon":{"base64data":"PHN2Zy8+","mediatype":"image/svg+xml"}})"));
    REQUIRE(p);
    REQUIRE(p->icon);
    CHECK(*p->icon->data == "<svg/>");
    CHECK(p->icon->mediatype == "image/svg+xml");
    auto empty = decode_package(Json::parse(R"({"icon":{}})"));
    REQUIRE(empty);
    REQUIRE(empty->icon);
    CHECK_FALSE(empty->icon->data);
  }

  TEST_CASE("bad icon data fails with Go's base64 message") {
    auto p = decode_package(Json::parse(R"({"icon":{"base64data":"@@@@"}})"));
    REQUIRE_FALSE(p);
    CHECK(p.error().message() == "illegal base64 data at input byte 0");
  }

  TEST_CASE("type mismatches use Go's encoding/json message") {
    CHECK(decode_package(Json::parse(R"({"name":1})")).error().message() ==
          "json: cannot unmarshal number into Go struct field Package.name of type string");
    CHECK(decode_channel(Json::parse(R"({"entries":[{"name":true}]})")).error().message() ==
          "json: cannot unmarshal bool into Go struct field ChannelEntry.entries.name of type "
          "string");
    CHECK(decode_channel(Json::parse(R"({"entries":{}})")).error().message() ==
          "json: cannot unmarshal object into Go struct field Channel.entries of type "
          "[]declcfg.ChannelEntry");
    CHECK(decode_channel(Json::parse(R"({"entries":["x"]})")).error().message() ==
          "json: cannot unmarshal string into Go struct field Channel.entries of type "
          "declcfg.ChannelEntry");
    CHECK(decode_channel(Json::parse(R"({"entries":[{"skips":"x"}]})")).error().message() ==
          "json: cannot unmarshal string into Go struct field ChannelEntry.entries.skips of type "
          "[]string");
    CHECK(decode_bundle(Json::parse(R"({"properties":[{"type":[]}]})")).error().message() ==
          "json: cannot unmarshal array into Go struct field Property.properties.type of type "
          "string");
    CHECK(decode_bundle(Json::parse(R"({"relatedImages":[{"image":2}]})")).error().message() ==
          "json: cannot unmarshal number into Go struct field RelatedImage.relatedImages.image of "
          "type string");
    CHECK(decode_package(Json::parse(R"({"icon":"x"})")).error().message() ==
          "json: cannot unmarshal string into Go struct field Package.icon of type declcfg.Icon");
  }

  TEST_CASE("channel entries: absent is null, empty stays empty") {
    auto absent = decode_channel(Json::parse(R"({"name":"s"})"));
    REQUIRE(absent);
    CHECK_FALSE(absent->entries);
    auto empty = decode_channel(Json::parse(R"({"name":"s","entries":[]})"));
    REQUIRE(empty);
    REQUIRE(empty->entries);
    CHECK(empty->entries->empty());
  }

  TEST_CASE("channel entry fields") {
    auto c = decode_channel(Json::parse(
        R"({"entries":[{"name":"b","replaces":"a","skips":["x","y"],"skipRange":"<1.0.0"}]})"));
    REQUIRE(c);
    const auto& e = c->entries->at(0);
    CHECK(e.name == "b");
    CHECK(e.replaces == "a");
    CHECK(e.skips == std::vector<std::string>{"x", "y"});
    CHECK(e.skip_range == "<1.0.0");
  }

  TEST_CASE("property values are kept whole; a missing value differs from null") {
    auto b = decode_bundle(Json::parse(
        R"({"properties":[{"type":"olm.package","value":{"packageName":"a","version":"1.0.0"}},{"type":"x"},{"type":"y","value":null}]})"));
    REQUIRE(b);
    REQUIRE(b->properties.size() == 3);
    CHECK(b->properties[0].value["version"] == "1.0.0");
    CHECK(b->properties[1].value.is_discarded());
    CHECK(b->properties[2].value.is_null());
  }

  TEST_CASE("property values move out of the blob, which keeps its member names") {
    Json blob = Json::parse(
        R"({"name":"b","properties":[{"type":"olm.csv.metadata","value":{"keywords":["k"]},"extra":1}]})");
    auto b = decode_bundle(blob);
    REQUIRE(b);
    CHECK(b->properties.at(0).value == Json::parse(R"({"keywords":["k"]})"));
    CHECK(blob["properties"][0]["value"].is_null());
    CHECK(dropped_property_member(blob["properties"][0]) == "extra");
    CHECK(blob["name"] == "b");
  }

  TEST_CASE("the member of a property entry that decoding drops") {
    CHECK(dropped_property_member(Json::parse(R"({"TYPE":"a","Value":1})")).empty());
    CHECK(dropped_property_member(Json::parse(R"({"type":"b","value":2,"extra":3})")) == "extra");
    CHECK(dropped_property_member(Json::parse(R"({"Type":"c","type":"d","value":4})")) == "Type");
    CHECK(dropped_property_member(Json::parse("null")).empty());
  }

  TEST_CASE("deprecation references") {
    auto d = decode_deprecation(Json::parse(
        R"({"package":"a","entries":[{"reference":{"schema":"olm.bundle","name":"b"},"message":"m"}]})"));
    REQUIRE(d);
    CHECK(d->package == "a");
    CHECK(d->entries->at(0).reference.schema == "olm.bundle");
    CHECK(d->entries->at(0).reference.name == "b");
    CHECK(d->entries->at(0).message == "m");
    CHECK(decode_deprecation(Json::parse(R"({"entries":[{"reference":"x"}]})")).error().message() ==
          "json: cannot unmarshal string into Go struct field DeprecationEntry.entries.reference "
          "of type declcfg.PackageScopedReference");
  }
}
