#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace opm::json {

// Reads `text` as one strict JSON value (RFC 8259: valid UTF-8, no control characters in
// strings, valid escapes and surrogate pairs, nothing after the value but space). Returns
// nullopt when it is not one, else the value of the last string-valued top-level "kind"
// key ("" when there is none or the value is not an object). A single pass that builds
// nothing, for telling a CSV among a bundle's objects.
std::optional<std::string> object_kind(std::string_view text);

} // namespace opm::json
