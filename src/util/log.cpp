#include "util/log.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

#include <ctime>

namespace opm::util {

namespace {
// logrus's TextFormatter.needsQuoting: an empty value is written bare (`port=`).
bool needs_quoting(std::string_view s) {
  for (unsigned char c : s) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '.' || c == '_' || c == '/' || c == '@' || c == '^' || c == '+';
    if (!plain) {
      return true;
    }
  }
  return false;
}

std::string logrus_value(std::string_view s) {
  return needs_quoting(s) ? go_quote(s) : std::string(s);
}

std::string rfc3339_now() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &local);
  long off = local.tm_gmtoff;
  if (off == 0) {
    return fmt::format("{}Z", buf);
  }
  char sign = off < 0 ? '-' : '+';
  off = off < 0 ? -off : off;
  return fmt::format("{}{}{:02}:{:02}", buf, sign, off / 3600, (off % 3600) / 60);
}

std::string_view level_tag(std::string_view level) {
  if (level == "fatal") {
    return "FATA";
  }
  if (level == "error") {
    return "ERRO";
  }
  if (level == "warning") {
    return "WARN";
  }
  if (level == "info") {
    return "INFO";
  }
  return "DEBU";
}

int level_colour(std::string_view level) {
  if (level == "fatal" || level == "error") {
    return 31;
  }
  if (level == "warning") {
    return 33;
  }
  if (level == "info") {
    return 36;
  }
  return 37;
}
} // namespace

std::string logrus_line(std::string_view level, std::string_view message, bool tty,
                        const std::vector<LogField>& fields) {
  std::string line;
  if (tty) {
    line = fmt::format("\x1b[{}m{}\x1b[0m[0000] {:<44}", level_colour(level), level_tag(level),
                       message);
    for (const auto& f : fields) {
      line +=
          fmt::format(" \x1b[{}m{}\x1b[0m={}", level_colour(level), f.key, logrus_value(f.value));
    }
    line += ' ';
  } else {
    line = fmt::format("time=\"{}\" level={} msg={}", rfc3339_now(), level, logrus_value(message));
    for (const auto& f : fields) {
      line += fmt::format(" {}={}", f.key, logrus_value(f.value));
    }
  }
  line += '\n';
  return line;
}

std::string go_log_line(std::string_view message) {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y/%m/%d %H:%M:%S", &local);
  return fmt::format("{} {}\n", buf, message);
}

} // namespace opm::util
