#include "json/sorted_members.hpp"
#include "json/value.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using Members = opm::json::SortedMembers<std::string, int>;

namespace {

std::vector<std::string> keys_of(const Members& m) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : m) {
    keys.push_back(key);
  }
  return keys;
}

} // namespace

TEST_CASE("SortedMembers keeps members in byte order whatever order they are added in") {
  Members m;
  CHECK(m.emplace("b", 2).second);
  CHECK(m.emplace("a", 1).second);
  CHECK(m.emplace("c", 3).second);
  CHECK(m.emplace("B", 0).second);
  CHECK(keys_of(m) == std::vector<std::string>{"B", "a", "b", "c"});
}

TEST_CASE("SortedMembers does not replace a member on emplace, but does on insert_or_assign") {
  Members m;
  m.emplace("k", 1);
  auto [at, added] = m.emplace("k", 2);
  CHECK_FALSE(added);
  CHECK(at->second == 1);
  CHECK_FALSE(m.insert_or_assign("k", 5).second);
  CHECK(m.at("k") == 5);
  CHECK(m.size() == 1);
}

TEST_CASE("SortedMembers finds by string_view and reports a missing key") {
  Members m{{"x", 1}, {"y", 2}};
  CHECK(m.find(std::string_view("y"))->second == 2);
  CHECK(m.find(std::string_view("z")) == m.end());
  CHECK(m.count("x") == 1);
  CHECK_FALSE(m.contains("w"));
  CHECK_THROWS_AS(m.at("w"), std::out_of_range);
  m["w"] = 7;
  CHECK(keys_of(m) == std::vector<std::string>{"w", "x", "y"});
}

TEST_CASE("SortedMembers erases by key and by position") {
  Members m{{"a", 1}, {"b", 2}, {"c", 3}};
  CHECK(m.erase("b") == 1);
  CHECK(m.erase("b") == 0);
  m.erase(m.begin());
  CHECK(keys_of(m) == std::vector<std::string>{"c"});
}

TEST_CASE("SortedMembers::take_members sorts them and keeps the last of equal keys") {
  Members m{{"old", 0}};
  Members::storage scratch{{"c", 1}, {"a", 2}, {"c", 3}, {"b", 4}, {"a", 5}, {"c", 6}};
  CHECK(m.take_members(scratch) == 3);
  CHECK(keys_of(m) == std::vector<std::string>{"a", "b", "c"});
  CHECK(m.at("a") == 5);
  CHECK(m.at("b") == 4);
  CHECK(m.at("c") == 6);
  CHECK(scratch.empty());

  scratch = {{"a", 1}, {"b", 2}};
  CHECK(m.take_members(scratch) == 0);
  CHECK(keys_of(m) == std::vector<std::string>{"a", "b"});
  CHECK(m.take_members(scratch) == 0);
  CHECK(m.empty());
}

TEST_CASE("SortedMembers::take_members of many keys in reverse order ends in a sorted map") {
  Members::storage scratch;
  for (int i = 200000; i > 0; --i) {
    scratch.emplace_back(std::to_string(i), i);
  }
  Members m;
  m.take_members(scratch);
  REQUIRE(m.size() == 200000);
  CHECK(m.begin()->first == "1");
  CHECK(m.at("99999") == 99999);
}

TEST_CASE("JSON objects iterate in byte order and compare by members") {
  opm::Json a = opm::Json::parse(R"({"zeta":1,"alpha":{"y":true,"x":null},"Beta":[1,2]})");
  CHECK(a.dump() == R"({"Beta":[1,2],"alpha":{"x":null,"y":true},"zeta":1})");
  opm::Json b = opm::Json::parse(R"({"Beta":[1,2],"zeta":1,"alpha":{"x":null,"y":true}})");
  CHECK(a == b);
  b["alpha"]["x"] = 0;
  CHECK(a != b);
  CHECK(a.contains("zeta"));
  a.erase("zeta");
  CHECK_FALSE(a.contains("zeta"));
}
