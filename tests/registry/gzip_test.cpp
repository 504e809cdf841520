#include "registry/gzip.hpp"

#include <doctest/doctest.h>

using namespace opm;

TEST_CASE("gzip_bytes writes one gzip member without a name or time, marked as Go marks it") {
  auto gz = registry::gzip_bytes("kind: Service\n");
  REQUIRE(gz);
  REQUIRE(gz->size() > 18);
  // magic, deflate, no flags, zero time, no extra flags, OS 255 (unknown)
  CHECK(gz->substr(0, 10) == std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10));
  // the trailer ends with the input's length, little-endian
  CHECK(gz->substr(gz->size() - 4) == std::string("\x0e\x00\x00\x00", 4));
  CHECK(*registry::gzip_bytes("kind: Service\n") == *gz);
}
