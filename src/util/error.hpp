#pragma once

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace opm::util {

enum class Errc {
  usage,           // bad flags or arguments: cobra-style "Error:" plus usage
  invalid,         // bad input data
  not_allowed,     // a reference of a kind the command refuses (upstream's ErrNotAllowed)
  not_found,       // a file, image or object that is not there
  io,              // reading or writing failed
  network,         // registry or transport failure
  bundle_exists,   // index add: bundle already present (exit 2)
  version_exists,  // index add: package version already present (exit 3)
  package_removal, // index/registry rm and prune: a package could not be removed
  internal,
};

// Where an input object or problem sits: a file, and a 1-based line and column (0 = unknown).
struct Location {
  std::string file;
  std::size_t line = 0;
  std::size_t column = 0;

  // "file:line:col", "file:line" or "file", as editors expect.
  [[nodiscard]] std::string describe() const;
  [[nodiscard]] bool empty() const { return file.empty(); }
};

// An error value: upstream's message text, kept intact, plus where it happened.
class Error {
public:
  Error(Errc code, std::string message, std::optional<Location> where = {});

  // An error the command has told the user about already: only its exit code is left to
  // give (from `code`, as for any error).
  [[nodiscard]] static Error already_reported(Errc code);

  // "doing: inner message", keeping code and location.
  [[nodiscard]] Error wrap(std::string_view doing) &&;
  [[nodiscard]] Error located(Location where) &&;

  [[nodiscard]] Errc code() const { return m_code; }
  [[nodiscard]] const std::string& message() const { return m_message; }
  [[nodiscard]] const std::optional<Location>& where() const { return m_where; }
  [[nodiscard]] bool reported() const { return m_reported; }
  // "file:line:col: message", or just the message when there is no location.
  [[nodiscard]] std::string describe() const;

private:
  Errc m_code;
  std::string m_message;
  std::optional<Location> m_where;
  bool m_reported = false;
};

template <typename T> using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(Errc code, std::string message,
                                   std::optional<Location> where = {}) {
  return std::unexpected<Error>(Error(code, std::move(message), std::move(where)));
}

} // namespace opm::util

namespace opm {
using util::Errc;
using util::Error;
using util::Location;
using util::Result;
} // namespace opm

// Pass an error up unchanged: `auto v = OPM_TRY(parse(x));` (ccache's TRY).
// A GCC statement expression; each expansion gets its own variable name. Give it a statement
// of its own or a whole initializer, never a place beside other arguments or members: an early
// return from inside `T{built, OPM_TRY(x)}` leaves `built` undestroyed under clang.
#define OPM_TRY(expr) OPM_TRY_IMPL(expr, OPM_TRY_CONCAT(opm_try_result_, __COUNTER__))
#define OPM_TRY_CONCAT_INNER(a, b) a##b
#define OPM_TRY_CONCAT(a, b) OPM_TRY_CONCAT_INNER(a, b)
#define OPM_TRY_IMPL(expr, var)                                                                    \
  __extension__({                                                                                  \
    auto var = (expr);                                                                             \
    if (!var) {                                                                                    \
      return std::unexpected(std::move(var).error());                                              \
    }                                                                                              \
    std::move(var).value();                                                                        \
  })

// Programmer mistakes; on in release builds too.
#define OPM_ASSERT(cond)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      ::opm::util::assertion_failed(__FILE__, __LINE__, #cond);                                    \
    }                                                                                              \
  } while (false)

namespace opm::util {
[[noreturn]] void assertion_failed(const char* file, int line, const char* condition);
}
