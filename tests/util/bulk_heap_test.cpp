#include "util/bulk_heap.hpp"

#include <doctest/doctest.h>

#include <malloc.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

using namespace opm::util;

namespace {

bool sanitized_allocator() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

std::uintptr_t program_break() { return reinterpret_cast<std::uintptr_t>(::sbrk(0)); }

} // namespace

TEST_CASE("bulk heap: a 16 MiB block comes from the heap, which grows and keeps 64 MiB steps") {
  if (sanitized_allocator()) {
    MESSAGE("skipped: needs glibc's allocator");
    return;
  }
  constexpr std::uintptr_t k_mib = 1 << 20;
  use_bulk_heap();
  std::uintptr_t before = program_break();
  std::uintptr_t free_at_top = ::mallinfo2().keepcost;
  void* block = std::malloc(16 * k_mib);
  REQUIRE(block != nullptr);
  auto at = reinterpret_cast<std::uintptr_t>(block);
  CHECK(at < program_break()); // not a mapping of its own, which lies far above the break
  // The heap grew by the block and a whole step, less what was free at its top.
  CHECK(program_break() - before + free_at_top >= 16 * k_mib + 64 * k_mib);
  std::free(block);
  CHECK(program_break() - before + free_at_top >= 64 * k_mib); // and kept the step
}
