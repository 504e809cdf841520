#pragma once

#include "util/error.hpp"

namespace opm::registry {

// True when a pull failed because the registry has nothing under the reference (its answer to
// the manifest request was 404: no such tag, digest or repository), rather than while
// fetching an image that is there.
bool is_missing_image(const Error& e);

} // namespace opm::registry
