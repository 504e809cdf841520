#include "json/value.hpp"

#include <doctest/doctest.h>

#include <string>
#include <utility>

using opm::json::Json;

namespace {

// A value nested `depth` times, arrays and objects in turn, a long string at the bottom.
Json nested(std::size_t depth) {
  Json value = std::string(100, 'x');
  for (std::size_t i = 0; i < depth; ++i) {
    Json outer = i % 2 == 0 ? Json::array() : Json::object();
    if (outer.is_array()) {
      outer.push_back(std::move(value));
      outer.push_back("sibling");
    } else {
      outer["k"] = std::move(value);
      outer["sibling"] = Json::array({1, "two"});
    }
    value = std::move(outer);
  }
  return value;
}

} // namespace

TEST_CASE("a value nested a million deep is destroyed without exhausting the stack") {
  // Destroying by recursion alone would need a frame per level; past a few dozen levels the
  // children go onto a stack of their own.
  Json deep = nested(1'000'000);
  CHECK(deep.is_object());
  deep = nullptr;
  CHECK(deep.is_null());
}

TEST_CASE("destroying a value leaves its moved-out parts whole") {
  Json doc = nested(200);
  Json kept = std::move(doc["k"]);
  doc = Json();
  CHECK(kept.is_array());
  CHECK(kept.size() == 2);
  CHECK(kept[1] == "sibling");
  Json copy = kept;
  kept = Json();
  CHECK(copy.is_array());
  CHECK(copy.dump().size() > 200 * 10);
}
