#include "catalog/go_compat.hpp"

#include "catalog/json_text.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace opm::catalog::go_compat {

const Json* member(const Json& obj, std::string_view name) {
  if (!obj.is_object()) {
    return nullptr;
  }
  const Json* found = nullptr;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (util::equal_fold(it.key(), name)) {
      found = &it.value();
    }
  }
  return found;
}

std::string_view find_raw(std::string_view text, std::initializer_list<std::string_view> path) {
  std::string_view current = text;
  for (std::string_view name : path) {
    auto members = json_text::object_members(current);
    if (!members) {
      return {};
    }
    std::string_view next;
    for (const auto& m : *members) {
      if (m.key == name) {
        next = m.value;
      }
    }
    if (next.data() == nullptr) {
      return {};
    }
    current = next;
  }
  return current;
}

} // namespace opm::catalog::go_compat
