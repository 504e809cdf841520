#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

// Go's time.Duration as text: flags such as "-connect-timeout=1s" and the messages that
// quote them back.
namespace opm::util {

// time.ParseDuration: "1s", "1.5s", "500ms", "1h2m3s", "-2m", "0"; units ns, us, µs, ms, s,
// m, h. No value on a syntax error, an unknown or missing unit, or overflow.
std::optional<std::chrono::nanoseconds> parse_go_duration(std::string_view text);

// Duration.String(): "1s", "1.5s", "500ms", "2m0s", "1h0m0s", "0s", "-1µs".
std::string format_go_duration(std::chrono::nanoseconds value);

} // namespace opm::util
