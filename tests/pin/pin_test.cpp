#include "pin/pin.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace opm;

namespace {

constexpr std::string_view k_digest =
    "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

} // namespace

TEST_SUITE("alpha pin") {
  TEST_CASE("a tag gives way to the digest, the name kept as written") {
    const std::string digest(k_digest);
    CHECK(pin::pinned("quay.io/ns/app:v1", digest) == "quay.io/ns/app@" + digest);
    CHECK(pin::pinned("127.0.0.1:5000/ns/app:v1", digest) == "127.0.0.1:5000/ns/app@" + digest);
    CHECK(pin::pinned("quay.io/ns/app", digest) == "quay.io/ns/app@" + digest);
    CHECK(pin::pinned("busybox:1.36", digest) == "busybox@" + digest);
  }
}
