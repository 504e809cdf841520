#include "json/value.hpp"

namespace opm::json {

void normalize_numbers(Json& v) {
  switch (v.type()) {
  case Json::value_t::object:
    for (auto& [key, child] : v.get_ref<Json::object_t&>()) {
      if (!child.is_string()) {
        normalize_numbers(child);
      }
    }
    break;
  case Json::value_t::array:
    for (auto& child : v.get_ref<Json::array_t&>()) {
      if (!child.is_string()) {
        normalize_numbers(child);
      }
    }
    break;
  case Json::value_t::number_integer:
    v = static_cast<double>(v.get<std::int64_t>());
    break;
  case Json::value_t::number_unsigned:
    v = static_cast<double>(v.get<std::uint64_t>());
    break;
  default:
    break;
  }
}

const Json& member_or_null(const Json& v, std::string_view key) {
  static const Json k_null;
  if (!v.is_object()) {
    return k_null;
  }
  auto it = v.find(key);
  return it == v.end() ? k_null : *it;
}

std::string string_member_or_empty(const Json& v, std::string_view key) {
  const Json& m = member_or_null(v, key);
  return m.is_string() ? m.get<std::string>() : "";
}

} // namespace opm::json
