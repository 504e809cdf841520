#pragma once

#include <string>

namespace opm::util {

// The GNU build ID of the running program as lower-case hex, or "" when it has none.
// Identifies this very build: caches of derived data key on it so that a rebuilt binary
// never reads what another build wrote.
const std::string& build_id();

} // namespace opm::util
