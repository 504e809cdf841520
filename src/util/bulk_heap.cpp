#include "util/bulk_heap.hpp"

#include <malloc.h>

#include <cstddef>

namespace opm::util {

namespace {

constexpr int k_heap_step = 64 << 20;
constexpr int k_largest_heap_block = 32 << 20; // glibc's own ceiling for the threshold

} // namespace

void use_bulk_heap() {
  ::mallopt(M_TOP_PAD, k_heap_step);
  ::mallopt(M_MMAP_THRESHOLD, k_largest_heap_block);
}

} // namespace opm::util
