#pragma once

#include "catalog/write.hpp"
#include "util/error.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <string>

namespace opm::cmd {

// -o json|yaml of the commands that write a catalog, with upstream's refusal of anything else.
inline Result<catalog::Format> catalog_output_format(const std::string& output) {
  if (output == "json") {
    return catalog::Format::json;
  }
  if (output == "yaml") {
    return catalog::Format::yaml;
  }
  return util::fail(Errc::invalid, fmt::format("invalid --output value {}, expected (json|yaml)",
                                               util::go_quote(output)));
}

} // namespace opm::cmd
