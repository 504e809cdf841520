// WWW-Authenticate header values of a registry's 401: every challenge parsed, the one to answer
// picked. Schemes and parameter names come out in lower case.
#include "registry/challenge.hpp"

#include <cctype>

#include "fuzz_support.hpp"

namespace {

bool has_upper(const std::string& s) {
  for (char c : s) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      return true;
    }
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto challenges = opm::registry::parse_challenges(opm::fuzz::as_text(data, size));
  for (const auto& challenge : challenges) {
    OPM_FUZZ_CHECK(!has_upper(challenge.scheme));
    for (const auto& [name, value] : challenge.params) {
      OPM_FUZZ_CHECK(!has_upper(name));
      OPM_FUZZ_CHECK(challenge.param(name) == value);
    }
  }
  const auto* picked = opm::registry::pick_challenge(challenges);
  OPM_FUZZ_CHECK(picked == nullptr ||
                 (picked >= challenges.data() && picked < challenges.data() + challenges.size()));
  return 0;
}
