// The executable's heap (src/heap/batch_heap.cpp) as a server uses it. The program runs with
// the argument "serve" (tests/CMakeLists.txt), so that, as `opm serve` does, it keeps glibc's
// heap and makes scratch heaps of mimalloc's when the library is installed.
#include "util/scratch_heap.hpp"

#include <doctest/doctest.h>

#include <dlfcn.h>
#include <malloc.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace {

using opm::util::KeptHeap;
using opm::util::ScratchHeap;

bool scratch_heaps_work() {
  ScratchHeap scratch;
  return ::dlopen("libmimalloc.so.2", RTLD_LAZY | RTLD_NOLOAD) != nullptr;
}

} // namespace

TEST_CASE("a block made under a KeptHeap inside a scratch heap outlives the scratch heap") {
  std::unique_ptr<std::string> kept;
  {
    ScratchHeap scratch;
    const std::string passing(1000, 'p');
    KeptHeap keep;
    kept = std::make_unique<std::string>(5000, 'k');
  }
  {
    // A later load reuses the pages the first one gave back.
    ScratchHeap later;
    const std::vector<std::string> filler(200, std::string(5000, 'x'));
    CHECK(filler.back().size() == 5000);
  }
  CHECK(*kept == std::string(5000, 'k'));
}

TEST_CASE("kept blocks lie one after another, each at its size rounded up to 16 bytes") {
  if (!scratch_heaps_work()) {
    MESSAGE("skipped: no libmimalloc.so.2, so no scratch heaps");
    return;
  }
  ScratchHeap scratch;
  KeptHeap keep;
  auto first = std::make_unique<char[]>(40);
  auto second = std::make_unique<char[]>(40);
  auto third = std::make_unique<char[]>(1);
  auto fourth = std::make_unique<char[]>(1);
  const auto at = [](const std::unique_ptr<char[]>& block) {
    return reinterpret_cast<std::uintptr_t>(block.get());
  };
  CHECK(at(second) - at(first) == 48);
  CHECK(at(third) - at(second) == 48);
  CHECK(at(fourth) - at(third) == 16);
}

TEST_CASE("a block bigger than a piece of the kept range is kept whole") {
  if (!scratch_heaps_work()) {
    MESSAGE("skipped: no libmimalloc.so.2, so no scratch heaps");
    return;
  }
  std::unique_ptr<std::string> big;
  {
    ScratchHeap scratch;
    KeptHeap keep;
    big = std::make_unique<std::string>(std::size_t{5} << 20, 'b');
  }
  CHECK(big->size() == std::size_t{5} << 20);
  CHECK(big->front() == 'b');
  CHECK(big->back() == 'b');
}

TEST_CASE("a KeptHeap outside any scratch heap allocates from glibc's heap") {
  KeptHeap keep;
  auto block = std::make_unique<char[]>(40);
  // Only a block of glibc's has a size glibc can read.
  CHECK(::malloc_usable_size(block.get()) >= 40);
}

TEST_CASE("keep copies a value out of a scratch heap, and moves it outside one") {
  const std::string text(1000, 't');
  {
    ScratchHeap scratch;
    std::string made = text;
    const char* made_at = made.data();
    const KeptHeap keep;
    const std::string kept = keep.keep(std::move(made));
    CHECK(kept == text);
    if (scratch_heaps_work()) {
      CHECK(kept.data() != made_at);
      CHECK(made == text); // copied from, not moved from
    }
  }
  std::string made = text;
  const char* made_at = made.data();
  const KeptHeap keep;
  const std::string kept = keep.keep(std::move(made));
  CHECK(kept.data() == made_at);
}
