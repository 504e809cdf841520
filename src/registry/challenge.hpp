#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace opm::registry {

// One RFC 7235 challenge: scheme in lower case, parameter names in lower case.
struct Challenge {
  std::string scheme;
  std::map<std::string, std::string> params;

  [[nodiscard]] std::string param(const std::string& name) const {
    auto it = params.find(name);
    return it == params.end() ? std::string{} : it->second;
  }
};

// Every challenge in one WWW-Authenticate header value. Quoted values may hold commas
// and backslash escapes.
std::vector<Challenge> parse_challenges(std::string_view header);

// The challenge to answer among all headers of a 401: Bearer before Basic.
const Challenge* pick_challenge(const std::vector<Challenge>& all);

} // namespace opm::registry
