#include "util/bulk_heap.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

using namespace opm::util;

namespace {

// The VmFlags of the mapping that holds `address`, from /proc/self/smaps; empty if none does.
std::string mapping_flags(std::uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = address >= begin && address < end;
    } else if (inside && line.starts_with("VmFlags:")) {
      return line;
    }
  }
  return {};
}

bool huge_pages_advised(std::uintptr_t address) {
  return mapping_flags(address).find(" hg") != std::string::npos;
}

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

} // namespace

TEST_CASE("bulk heap: the main heap's new step and a worker thread's heap ask for huge pages") {
  if (sanitized_allocator() || !std::filesystem::exists("/sys/kernel/mm/transparent_hugepage")) {
    MESSAGE("skipped: needs glibc's allocator and transparent huge pages");
    return;
  }
  use_bulk_heap();
  auto top = reinterpret_cast<std::uintptr_t>(::sbrk(0)) - 1;
  CHECK(huge_pages_advised(top));

  std::string worker_flags;
  std::thread worker([&worker_flags] {
    use_bulk_heap_in_this_thread();
    void* block = std::malloc(1000);
    worker_flags = mapping_flags(reinterpret_cast<std::uintptr_t>(block));
    std::free(block);
  });
  worker.join();
  CHECK(worker_flags.find(" hg") != std::string::npos);
}
