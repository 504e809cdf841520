#include "util/source_date.hpp"

#include <charconv>

namespace opm::util {

std::optional<std::int64_t> parse_source_date_epoch(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0) {
    return std::nullopt;
  }
  return value;
}

} // namespace opm::util
