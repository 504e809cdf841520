#pragma once

#include "util/error.hpp"

#include <string>

// Deprecating a bundle and truncating what it replaces, as upstream v1.26.5's
// sqlLoader.DeprecateBundle does (pkg/sqlite/load.go).
namespace opm::sqlite {

class Connection;

inline constexpr std::string_view k_default_channel_removal =
    "Bundle deprecation causing default channel removal";

// In one transaction: the bundle stored with image `path` keeps its channel entries without
// replaces links and gains the olm.deprecated property and a deprecated row; the bundles it
// replaces lose their entries in its channels, and those found only in its channels and
// replaced only from within its tail are deleted; channels it heads are dropped.
// Errors: Errc::not_found when no bundle has that image; Errc::not_allowed with
// k_default_channel_removal when the bundle or its tail holds the default channel's head.
Result<void> deprecate_bundle(Connection& db, const std::string& path);

// The image of the head of `channel` in `package`, or "" when there is none.
Result<std::string> channel_head_image(Connection& db, const std::string& package,
                                       const std::string& channel);

// The package whose default channel the bundle stored with image `path` heads, or "".
Result<std::string> package_of_default_head(Connection& db, const std::string& path);

} // namespace opm::sqlite
