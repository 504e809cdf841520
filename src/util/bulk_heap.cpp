#include "util/bulk_heap.hpp"

#include <malloc.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <sys/mman.h>

namespace opm::util {

namespace {

constexpr std::size_t k_main_heap_step = std::size_t{64} << 20;
// glibc reserves each thread arena's heap as one block of this size, aligned to it
// (HEAP_MAX_SIZE on 64-bit machines), so the heap of any block it hands out is found by
// rounding the block's address down.
constexpr std::uintptr_t k_arena_heap_size = std::uintptr_t{64} << 20;
constexpr std::size_t k_probe_block = std::size_t{64} << 10;

std::atomic<bool> g_on{false};
std::atomic<bool> g_main_heap_grown{false};

std::uintptr_t page_size() {
  long size = ::sysconf(_SC_PAGESIZE);
  return size > 0 ? static_cast<std::uintptr_t>(size) : 4096;
}

std::uintptr_t current_break() { return reinterpret_cast<std::uintptr_t>(::sbrk(0)); }

void advise_huge_pages(std::uintptr_t begin, std::uintptr_t end) {
  std::uintptr_t page = page_size();
  begin = (begin + page - 1) & ~(page - 1);
  end &= ~(page - 1);
  if (end > begin) {
    // Advice only: without transparent huge pages the heap keeps its small pages.
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
}

// Makes the main heap take its next 64 MiB step now, so that the whole step can be advised:
// the kernel keeps the advice per mapping, and a later growth is a mapping of its own.
void grow_main_heap_now(std::uintptr_t before) {
  std::array<void*, 64> blocks{};
  std::size_t taken = 0;
  while (taken < blocks.size() && current_break() == before) {
    blocks[taken++] = std::malloc(k_probe_block);
  }
  for (std::size_t i = 0; i < taken; ++i) {
    std::free(blocks[i]);
  }
}

} // namespace

void use_bulk_heap() {
  if (g_on.exchange(true)) {
    return;
  }
  std::uintptr_t before = current_break();
  ::mallopt(M_TOP_PAD, static_cast<int>(k_main_heap_step));
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  grow_main_heap_now(before);
  std::uintptr_t after = current_break();
  if (after == before) {
    return; // no main heap to grow (another allocator, or brk refused)
  }
  g_main_heap_grown.store(true);
  advise_huge_pages(before, after);
}

void use_bulk_heap_in_this_thread() {
  if (!g_on.load()) {
    return;
  }
  void* probe = std::malloc(1);
  auto at = reinterpret_cast<std::uintptr_t>(probe);
  // The main heap lies between this program's own data and the program break.
  bool in_main_heap = at >= reinterpret_cast<std::uintptr_t>(&g_on) && at < current_break();
  if (probe != nullptr && g_main_heap_grown.load() && !in_main_heap) {
    std::uintptr_t heap = at & ~(k_arena_heap_size - 1);
    advise_huge_pages(heap, heap + k_arena_heap_size);
  }
  std::free(probe);
}

} // namespace opm::util
