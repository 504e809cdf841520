#pragma once

#include <string_view>

namespace opm::util {
// The upstream release whose behaviour this opm follows, with this implementation's own
// version as semver build metadata: "v1.73.0+cpp.0.1.0".
std::string_view version();
std::string_view git_commit();
// ISO 8601 in UTC, as upstream's `date -u +'%Y-%m-%dT%H:%M:%SZ'`.
std::string_view build_date();
} // namespace opm::util
