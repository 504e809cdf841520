#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <string>

// Decoding of the known schemas from a normalised blob, as Go's encoding/json decodes
// into upstream's declcfg structs: members match fields case-insensitively, unknown
// members are dropped, type mismatches fail with Go's message text.
namespace opm::catalog {

// Property values are moved out of `blob` rather than copied; the rest of it, and the names of
// its members, stay as they were.
Result<Package> decode_package(Json& blob);
Result<Channel> decode_channel(Json& blob);
Result<Bundle> decode_bundle(Json& blob);
inline Result<Package> decode_package(Json&& blob) { return decode_package(blob); }
inline Result<Channel> decode_channel(Json&& blob) { return decode_channel(blob); }
inline Result<Bundle> decode_bundle(Json&& blob) { return decode_bundle(blob); }
Result<Deprecation> decode_deprecation(const Json& blob);

// The first member of a property entry that decoding it drops: one that is neither `type` nor
// `value`, or one of two spellings of the same field (`Type` and `type`). Empty when none is.
std::string dropped_property_member(const Json& entry);

} // namespace opm::catalog
