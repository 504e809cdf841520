#pragma once

#include <compare>
#include <string>

namespace opm::sqlite {

// A dependency or a property row: its type and its JSON value text, as stored.
struct TypedValue {
  std::string type;
  std::string value;
  auto operator<=>(const TypedValue&) const = default;
};

} // namespace opm::sqlite
