#include "util/error.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace opm::util {

std::string Location::describe() const {
  if (line == 0) {
    return file;
  }
  if (column == 0) {
    return fmt::format("{}:{}", file, line);
  }
  return fmt::format("{}:{}:{}", file, line, column);
}

Error::Error(Errc code, std::string message, std::optional<Location> where)
    : m_code(code), m_message(std::move(message)), m_where(std::move(where)) {}

Error Error::already_reported(Errc code) {
  Error e(code, "");
  e.m_reported = true;
  return e;
}

Error Error::wrap(std::string_view doing) && {
  m_message = fmt::format("{}: {}", doing, m_message);
  return std::move(*this);
}

Error Error::located(Location where) && {
  m_where = std::move(where);
  return std::move(*this);
}

std::string Error::describe() const {
  if (!m_where || m_where->empty()) {
    return m_message;
  }
  return fmt::format("{}: {}", m_where->describe(), m_message);
}

void assertion_failed(const char* file, int line, const char* condition) {
  std::fprintf(stderr, "opm: internal error: %s:%d: assertion failed: %s\n", file, line, condition);
  std::abort();
}

} // namespace opm::util
