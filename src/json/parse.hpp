#pragma once

#include "json/value.hpp"

#include <string_view>

namespace opm::json {

// Json::parse, building each object at once from its members as read (see
// SortedMembers::take_members): an object of many keys out of order takes O(n log n), not
// O(n²). Strict JSON, the whole text one value; of equal keys the last one stays. On bad
// input: throws nlohmann's parse_error, or with `allow_exceptions` false returns a discarded
// value, as Json::parse does.
Json parse_text(std::string_view text, bool allow_exceptions = true);

} // namespace opm::json
