// Whether small pages' faults are dear here (src/heap/huge_pages.hpp), against a measurement of
// the test's own.
#include "heap/huge_pages.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <sys/mman.h>

namespace {

// The least time the first touch of a fresh small page took, in nanoseconds, over `pages`.
long long least_first_touch_ns(int pages) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t size = page * static_cast<std::size_t>(pages);
  void* mapped = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(mapped != MAP_FAILED);
  ::madvise(mapped, size, MADV_NOHUGEPAGE);
  auto* bytes = static_cast<volatile char*>(mapped);
  long long least = -1;
  for (int i = 0; i < pages; ++i) {
    const auto start = std::chrono::steady_clock::now();
    bytes[static_cast<std::size_t>(i) * page] = 1;
    const auto took = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
    least = least < 0 ? took : std::min<long long>(least, took);
  }
  ::munmap(mapped, size);
  return least;
}

} // namespace

TEST_CASE("small pages are dear where their first touch takes several microseconds, and not "
          "where it takes one") {
  const long long least = least_first_touch_ns(64);
  INFO("least first touch of 64 small pages: " << least << " ns");
  if (least >= 6000) {
    CHECK(opm::heap::small_pages_are_dear());
  } else if (least <= 2000) {
    CHECK_FALSE(opm::heap::small_pages_are_dear());
  } else {
    MESSAGE("too close to the 4 us line to tell: " << least << " ns");
  }
}
