#pragma once

#include "util/error.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace opm::registry {

// Streaming sha256/sha384/sha512 over bytes, finished as "sha256:<hex>".
class Hasher {
public:
  // `algorithm` is "sha256", "sha384" or "sha512"; anything else falls back to sha256.
  explicit Hasher(std::string_view algorithm = "sha256");
  ~Hasher();
  Hasher(Hasher&&) noexcept;
  Hasher& operator=(Hasher&&) noexcept;
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;

  void update(std::string_view bytes);
  void reset();
  [[nodiscard]] std::string finish(); // "alg:hex"; the hasher is reset afterwards

private:
  struct State;
  std::unique_ptr<State> m_state;
};

// "sha256:<hex>" of `bytes` using the algorithm named in `like` ("sha512:..." -> sha512).
std::string digest_of(std::string_view bytes, std::string_view like = "sha256:");
std::string_view digest_algorithm(std::string_view digest);
std::string_view digest_hex(std::string_view digest);

} // namespace opm::registry
