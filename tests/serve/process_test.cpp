#include "serve/process.hpp"

#include <doctest/doctest.h>

#include <malloc.h>

#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <thread>
#include <vector>

namespace opm::serve {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool k_glibc_heap = false; // the sanitizer's allocator has no arenas to count
#else
constexpr bool k_glibc_heap = true;
#endif

// The heap arenas glibc has made so far, as malloc_info lists them.
int malloc_arenas() {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* out = ::open_memstream(&text, &size);
  REQUIRE(out != nullptr);
  REQUIRE(::malloc_info(0, out) == 0);
  REQUIRE(std::fclose(out) == 0);
  int arenas = 0;
  const std::string_view info(text, size);
  for (std::size_t at = info.find("<heap nr="); at != std::string_view::npos;
       at = info.find("<heap nr=", at + 1)) {
    ++arenas;
  }
  std::free(text);
  return arenas;
}

TEST_CASE("a server's threads share at most one heap arena per processor") {
  if (!k_glibc_heap) {
    return;
  }
  const int before = malloc_arenas();
  const int bound = bound_malloc_arenas();
  CHECK(bound >= 2);
  // Threads that all allocate at once, each for the first time: unbounded, glibc gives each a
  // new arena of its own.
  const int threads = 3 * bound + 4;
  std::barrier all_started(threads);
  std::vector<std::thread> running;
  for (int i = 0; i < threads; ++i) {
    running.emplace_back([&all_started] {
      all_started.arrive_and_wait();
      std::vector<char> block(4096, 'x');
      all_started.arrive_and_wait();
      CHECK(block.back() == 'x');
    });
  }
  for (auto& t : running) {
    t.join();
  }
  CHECK(malloc_arenas() <= std::max(before, bound));
}

} // namespace
} // namespace opm::serve
