#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace opm::util {

// The value of SOURCE_DATE_EPOCH (reproducible-builds.org): whole seconds since the epoch,
// or nullopt when `text` is not a non-negative decimal number.
std::optional<std::int64_t> parse_source_date_epoch(std::string_view text);

} // namespace opm::util
