#include "json/value.hpp"

namespace opm::json {

void normalize_numbers(Json& v) {
  switch (v.type()) {
  case Json::value_t::object:
  case Json::value_t::array:
    for (auto& child : v) {
      normalize_numbers(child);
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

} // namespace opm::json
