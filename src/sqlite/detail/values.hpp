#pragma once

#include "util/error.hpp"

#include <optional>
#include <string>
#include <string_view>

// Small pieces the index writers share (bundle_insert.cpp, package_rebuild.cpp).
namespace opm::sqlite::detail {

// Upstream binds an empty version or path as NULL.
inline std::optional<std::string> null_if_empty(const std::string& s) {
  return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

// The error of `r` prefixed with what was being done.
inline Result<void> wrap(Result<void> r, std::string_view doing) {
  if (!r) {
    return std::unexpected(std::move(r).error().wrap(doing));
  }
  return {};
}

} // namespace opm::sqlite::detail
