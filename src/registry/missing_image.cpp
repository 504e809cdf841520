#include "registry/missing_image.hpp"

#include <string>

namespace opm::registry {

bool is_missing_image(const Error& e) {
  // Only the manifest request's status error (Session::status_error) names its URL so.
  return e.code() == Errc::not_found && e.message().find("/manifests/") != std::string::npos;
}

} // namespace opm::registry
