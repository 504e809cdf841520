#include "util/parallel.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <vector>

using opm::util::run_indexed;
using opm::util::run_indexed_until_failure;

TEST_CASE("run_indexed runs every index exactly once") {
  for (std::size_t workers : {1U, 3U, 16U}) {
    std::vector<std::atomic<int>> seen(100);
    run_indexed(seen.size(), workers, [&](std::size_t i) { seen[i].fetch_add(1); });
    for (const auto& s : seen) {
      CHECK(s.load() == 1);
    }
  }
  run_indexed(0, 4, [](std::size_t) { FAIL("no index to run"); });
}

TEST_CASE("run_indexed_until_failure runs everything before the first failure") {
  std::mutex m;
  std::set<std::size_t> ran;
  run_indexed_until_failure(50, 4, [&](std::size_t i) {
    std::lock_guard lock(m);
    ran.insert(i);
    return i != 20 && i != 30;
  });
  for (std::size_t i = 0; i <= 20; ++i) {
    CHECK(ran.contains(i));
  }
  // With one worker nothing after the failure starts.
  ran.clear();
  run_indexed_until_failure(50, 1, [&](std::size_t i) {
    ran.insert(i);
    return i != 7;
  });
  CHECK(ran.size() == 8);
  CHECK(*ran.rbegin() == 7);
}
