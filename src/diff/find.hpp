#pragma once

#include <string_view>

namespace opm::diff {

// The value under `key` in a map with a transparent comparator, or nullptr.
template <typename Map>
const typename Map::mapped_type* find_in(const Map& map, std::string_view key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

} // namespace opm::diff
