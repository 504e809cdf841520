#include "cli/context.hpp"

#include <unistd.h>

#include <string_view>

extern char** environ;

namespace opm::cli {

std::optional<std::string> Environment::get(const std::string& name) const {
  auto it = vars.find(name);
  if (it == vars.end()) {
    return std::nullopt;
  }
  return it->second;
}

Environment read_environment() {
  Environment env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq != std::string_view::npos) {
      env.vars.emplace(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
    }
  }
  return env;
}

bool stderr_takes_escapes(const Environment& env) {
  return ::isatty(STDERR_FILENO) == 1 && env.get("NO_COLOR").value_or("").empty() &&
         env.get("TERM") != "dumb";
}

} // namespace opm::cli
