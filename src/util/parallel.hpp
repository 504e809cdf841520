#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace opm::util {

// Runs `task(i)` for every i in [0, count) on up to `workers` threads, the caller's
// included, taking indices in increasing order. `task` returns false when item i failed:
// items after the first failed one are then skipped, while every item before it still
// runs, so the first failure in input order is always known to the caller.
template <typename Task>
void run_indexed_until_failure(std::size_t count, std::size_t workers, Task&& task) {
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> first_failed{count};
  auto worker = [&] {
    for (;;) {
      std::size_t i = next.fetch_add(1);
      if (i >= count || i > first_failed.load()) {
        return;
      }
      if (!task(i)) {
        std::size_t cur = first_failed.load();
        while (i < cur && !first_failed.compare_exchange_weak(cur, i)) {
        }
      }
    }
  };
  workers = std::clamp<std::size_t>(workers, 1, std::max<std::size_t>(count, 1));
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (std::size_t t = 1; t < workers; ++t) {
    pool.emplace_back(worker);
  }
  worker();
  for (auto& t : pool) {
    t.join();
  }
}

// Runs `task(i)` for every i in [0, count) on up to `workers` threads.
template <typename Task> void run_indexed(std::size_t count, std::size_t workers, Task&& task) {
  run_indexed_until_failure(count, workers, [&](std::size_t i) {
    task(i);
    return true;
  });
}

} // namespace opm::util
