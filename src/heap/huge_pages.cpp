#include "heap/huge_pages.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <sys/mman.h>

namespace opm::heap {

namespace {

constexpr std::chrono::nanoseconds k_dear_fault{4000};
constexpr int k_probes = 4;

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
  auto least = std::chrono::nanoseconds::max();
  for (int i = 0; i < k_probes; ++i) {
    const auto start = std::chrono::steady_clock::now();
    bytes[static_cast<std::size_t>(i) * page] = 1;
    least = std::min<std::chrono::nanoseconds>(least, std::chrono::steady_clock::now() - start);
  }
  ::munmap(mapped, page * k_probes);
  return least >= k_dear_fault;
}

} // namespace opm::heap
