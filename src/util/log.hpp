#pragma once

#include <string>
#include <string_view>
#include <vector>

// Upstream's stderr line formats: logrus text lines (time="..." level=... msg="...").
namespace opm::util {

struct LogField {
  std::string key;
  std::string value;
};

// logrus text formatter. Not a TTY: `time="<RFC3339 local>" level=<level> msg=<m> k=v`,
// values quoted only when they hold characters outside [A-Za-z0-9-._/@^+].
// TTY: `ESC[31mFATAESC[0m[0000] <message padded to 44> k=v`.
std::string logrus_line(std::string_view level, std::string_view message, bool tty,
                        const std::vector<LogField>& fields = {});

// Go's log package: `YYYY/MM/DD HH:MM:SS <message>` in local time.
std::string go_log_line(std::string_view message);

} // namespace opm::util
