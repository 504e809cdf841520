#include "index/missing_image.hpp"

#include "registry/missing_image.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::index {

namespace {

std::string unresolved(const std::string& ref) {
  return fmt::format("error resolving name for image ref {0}: {0}: not found", ref);
}

} // namespace

Error index_pull_error(const std::string& ref, Error pulled) {
  if (!registry::is_missing_image(pulled)) {
    return pulled;
  }
  return Error(Errc::not_found, unresolved(ref));
}

Error bundle_pull_error(const std::string& ref, Error pulled) {
  if (!registry::is_missing_image(pulled)) {
    return pulled;
  }
  return Error(Errc::not_found,
               fmt::format("[{}, image {}: not found]", unresolved(ref), util::go_quote(ref)));
}

} // namespace opm::index
