#pragma once

#include <string_view>

namespace opm::yaml {

// The order in which go-yaml v2 writes the keys of a mapping (its "natural" order): compare
// rune by rune; at the first difference two letters compare by code point, a letter sorts
// after a non-letter, and otherwise the runs of digits starting there compare as numbers
// (then by length, then by code point). A key that is a prefix of another comes first.
bool natural_less(std::string_view a, std::string_view b);

} // namespace opm::yaml
