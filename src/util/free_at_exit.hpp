#pragma once

#include <memory>
#include <type_traits>
#include <utility>

// Large values a command is done with, left for the process's exit to reclaim. A loaded
// catalog is millions of small heap blocks: freeing them one by one takes longer than the
// kernel takes to drop the pages they sit on. Only for values of a command's last step; a
// long-running process must not use it.
namespace opm::util {

// Keeps `value` alive, never destroyed, until the process ends (it stays reachable, so leak
// checkers do not report it).
void free_at_exit(std::shared_ptr<const void> value);

template <typename T> void free_at_exit(T&& value) {
  free_at_exit(std::shared_ptr<const void>(
      std::make_shared<const std::remove_cvref_t<T>>(std::forward<T>(value))));
}

} // namespace opm::util
