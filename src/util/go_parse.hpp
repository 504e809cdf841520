#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

// Number parsing as Go's strconv does it, for values whose typing must match upstream.
namespace opm::util {

// Go's strconv.ParseInt(s, 0, 64) / ParseUint(s, 0, 64) on text without underscores.
// A failure names strconv's two errors: ErrSyntax and ErrRange.
enum class NumError { syntax, range };
std::expected<std::int64_t, NumError> parse_go_int(std::string_view s, int base = 0);
std::expected<std::uint64_t, NumError> parse_go_uint(std::string_view s, int base = 0);

// Go's strconv.underscoreOK: underscores only between digits (or after a base prefix).
bool go_underscore_ok(std::string_view s);

// Go's strconv.ParseFloat(s, 64) for decimal text, underscores allowed between digits as in Go
// literals. Overflow is a failure; underflow gives a signed zero, as in Go.
std::optional<double> parse_go_decimal_float(std::string_view s);

// The text without its underscores.
std::string strip_underscores(std::string_view s);

} // namespace opm::util
