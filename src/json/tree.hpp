#pragma once

#include "json/value.hpp"

#include <string>
#include <string_view>
#include <vector>

// Walking JSON values without recursion, so that deeply nested input cannot exhaust the
// stack. Internal to catalog/.
namespace opm::json {

// A copy of `source`.
Json deep_copy(const Json& source);

// The first node `match(node, key)` accepts, in json.Marshal's order (object keys sorted,
// arrays in order, a node before its children); `key` is the name it sits under, empty at
// the top and in arrays. Its key is stored in `key_out` when given.
template <typename Match>
const Json* find_in_order(const Json& root, Match match, std::string* key_out = nullptr) {
  struct Level {
    const Json* value;
    Json::const_iterator next;
  };
  if (match(root, std::string_view())) {
    return &root;
  }
  std::vector<Level> stack;
  if (root.is_structured()) {
    stack.push_back({&root, root.begin()});
  }
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.value->end()) {
      stack.pop_back();
      continue;
    }
    auto it = level.next++;
    std::string_view key = level.value->is_object() ? std::string_view(it.key()) : "";
    if (match(*it, key)) {
      if (key_out != nullptr) {
        *key_out = std::string(key);
      }
      return &*it;
    }
    if (it->is_structured()) {
      stack.push_back({&*it, it->begin()});
    }
  }
  return nullptr;
}

} // namespace opm::json
