#include "heap/huge_pages.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <ctime>
#include <sys/mman.h>

namespace opm::heap {

namespace {

constexpr long long k_dear_fault_ns = 4000;
constexpr int k_probes = 4;

long long now_ns() noexcept {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<long long>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

} // namespace

bool small_pages_are_dear() noexcept {
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (page_size <= 0) {
    return false;
  }
  const auto page = static_cast<std::size_t>(page_size);
  void* mapped = ::mmap(nullptr, page * k_probes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED) {
    return false;
  }
  auto* bytes = static_cast<volatile char*>(mapped);
  ::madvise(mapped, page * k_probes, MADV_NOHUGEPAGE);
  long long least = -1;
  for (int i = 0; i < k_probes; ++i) {
    const long long start = now_ns();
    bytes[static_cast<std::size_t>(i) * page] = 1;
    const long long took = now_ns() - start;
    least = least < 0 ? took : std::min(least, took);
  }
  ::munmap(mapped, page * k_probes);
  return least >= k_dear_fault_ns;
}

} // namespace opm::heap
