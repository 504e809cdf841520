#include "util/free_at_exit.hpp"

#include <mutex>
#include <vector>

namespace opm::util {

void free_at_exit(std::shared_ptr<const void> value) {
  static std::mutex lock;
  // Never deleted, so that exit() runs no destructor over what it holds.
  static auto* kept = new std::vector<std::shared_ptr<const void>>();
  std::lock_guard guard(lock);
  kept->push_back(std::move(value));
}

} // namespace opm::util
