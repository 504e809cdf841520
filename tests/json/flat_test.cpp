#include "json/flat.hpp"
#include "json/text.hpp"
#include "json/writer.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using opm::json::FlatNode;
using opm::json::Json;

namespace {

Json parsed(std::string_view text) { return opm::json::text::parse(text).value(); }

std::string flat_of(std::string_view text) {
  opm::json::Flattener flattener;
  return std::string(flattener.flatten(parsed(text)).value());
}

} // namespace

TEST_SUITE("flat json") {
  TEST_CASE("a flattened value reads back as the value it was made from") {
    opm::json::Flattener flattener; // one buffer for all, grown and reused
    for (std::string_view text :
         {R"(null)", R"(true)", R"(false)", R"(0)", R"(-9223372036854775808)",
          R"(18446744073709551615)", R"(1.5)", R"(-2e-300)", R"("")", R"("a\u0000b")", R"([])",
          R"({})", R"([[],{},[null,[1,"x"]]])",
          R"({"b":{"z":[1,2,{"y":"é"}],"a":{}},"a":"<&>","":[true,false,null]})"}) {
      CAPTURE(text);
      const Json value = parsed(text);
      const std::string flat(flattener.flatten(value).value());
      CHECK(FlatNode::root(flat).to_json() == value);
      CHECK(opm::json::to_text(FlatNode::root(flat).to_json()) == opm::json::to_text(value));
    }
  }

  TEST_CASE("an object's members read in their order, each stepped over whole") {
    const std::string flat = flat_of(R"({"a":[1,[2,3],{"x":"y"}],"b":"text","c":{"d":null}})");
    const auto members = FlatNode::root(flat).members();
    REQUIRE(members.size() == 3);
    CHECK(members[0].key == "a");
    CHECK(members[0].value.elements().size() == 3);
    CHECK(members[0].value.elements()[2].members()[0].value.string() == "y");
    CHECK(members[1].key == "b");
    CHECK(members[1].value.string() == "text");
    CHECK(members[2].key == "c");
    CHECK(members[2].value.members()[0].value.is_null());
  }

  TEST_CASE("scalars read as the decoded value's getters read them") {
    const std::string flat = flat_of(R"([8443, 8443.9, -7.5, 18446744073709551615, "8443", true])");
    const auto elements = FlatNode::root(flat).elements();
    REQUIRE(elements.size() == 6);
    CHECK(elements[0].integer() == 8443);
    CHECK(elements[1].integer() == 8443);
    CHECK(elements[2].integer() == -7);
    CHECK(elements[3].integer() == static_cast<long long>(18446744073709551615ULL));
    CHECK(elements[4].is_number() == false);
    CHECK(elements[4].integer() == 0);
    CHECK(elements[4].string() == "8443");
    CHECK(elements[5].is_true());
    CHECK(elements[5].string().empty());
    CHECK(elements[0].members().empty());
    CHECK(elements[0].elements().empty());
  }

  TEST_CASE("an absent node is none of the kinds and reads as null") {
    const FlatNode absent;
    CHECK(absent.absent());
    CHECK_FALSE(absent.is_null());
    CHECK_FALSE(absent.is_true());
    CHECK_FALSE(absent.is_number());
    CHECK(absent.string().empty());
    CHECK(absent.members().empty());
    CHECK(absent.elements().empty());
    CHECK(absent.to_json().is_null());
  }
}
