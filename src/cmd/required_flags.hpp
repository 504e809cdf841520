#pragma once

#include "cmd/context.hpp"
#include "util/error.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace opm::cmd {

// cobra's required-flag check, made when the command runs rather than while parsing, so that
// the SQLite commands log their deprecation notice first, as upstream's PersistentPreRun does.
// Error (printed with the usage): `required flag(s) "a", "b" not set`.
inline Result<void> check_required(const Context& ctx,
                                   const std::vector<const CLI::Option*>& flags) {
  std::vector<std::string> missing;
  for (const CLI::Option* flag : flags) {
    if (!ctx.meta.changed(flag)) {
      missing.push_back(flag->get_single_name());
    }
  }
  if (missing.empty()) {
    return {};
  }
  std::sort(missing.begin(), missing.end());
  std::string names;
  for (const auto& m : missing) {
    names += (names.empty() ? "\"" : ", \"") + m + "\"";
  }
  return util::fail(Errc::usage, "required flag(s) " + names + " not set");
}

} // namespace opm::cmd
