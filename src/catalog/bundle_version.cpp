#include "catalog/bundle_version.hpp"

#include "catalog/property.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::catalog {

Result<util::semver::Version> bundle_version(const Bundle& b) {
  auto props = property::parse(b.properties);
  if (!props) {
    return std::unexpected(std::move(props).error().wrap(
        fmt::format("parse properties for bundle {}", util::go_quote(b.name))));
  }
  if (props->packages.size() != 1) {
    return util::fail(Errc::invalid,
                      fmt::format("bundle {} has multiple \"olm.package\" properties, expected "
                                  "exactly 1",
                                  util::go_quote(b.name)));
  }
  const std::string& text = props->packages.front().version;
  auto version = util::semver::parse(text);
  if (!version) {
    return util::fail(Errc::invalid,
                      fmt::format("bundle {} has invalid version {}: {}", util::go_quote(b.name),
                                  util::go_quote(text), version.error().message()));
  }
  return std::move(*version);
}

} // namespace opm::catalog
