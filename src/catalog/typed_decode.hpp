#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

// Decoding of the known schemas from a normalised blob, as Go's encoding/json decodes
// into upstream's declcfg structs: members match fields case-insensitively, unknown
// members are dropped, type mismatches fail with Go's message text.
namespace opm::catalog {

Result<Package> decode_package(const Json& blob);
Result<Channel> decode_channel(const Json& blob);
Result<Bundle> decode_bundle(const Json& blob);
Result<Deprecation> decode_deprecation(const Json& blob);

// "json: cannot unmarshal <kind> into Go struct field <Struct>.<path> of type <type>",
// or "... into Go value of type <type>" when `strct` is empty.
Error go_type_error(const Json& value, std::string_view strct, std::string_view path,
                    std::string_view go_type);

// Go's JSON kind names: "string", "number", "bool", "array", "object".
std::string_view go_json_kind(const Json& value);

} // namespace opm::catalog
