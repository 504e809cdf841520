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

} // namespace opm::catalog
