#include "util/free_at_exit.hpp"

#include <doctest/doctest.h>

#include <vector>

namespace {

struct CountsDestruction {
  int* destroyed;
  explicit CountsDestruction(int* counter) : destroyed(counter) {}
  CountsDestruction(CountsDestruction&& other) noexcept : destroyed(other.destroyed) {
    other.destroyed = nullptr;
  }
  CountsDestruction(const CountsDestruction&) = delete;
  CountsDestruction& operator=(const CountsDestruction&) = delete;
  CountsDestruction& operator=(CountsDestruction&&) = delete;
  ~CountsDestruction() {
    if (destroyed != nullptr) {
      ++*destroyed;
    }
  }
};

} // namespace

TEST_SUITE("free at exit") {
  TEST_CASE("a value left for the exit is moved out of its owner and never destroyed") {
    int destroyed = 0;
    std::vector<int> numbers{1, 2, 3};
    opm::util::free_at_exit(std::move(numbers));
    CHECK(numbers.empty()); // NOLINT(bugprone-use-after-move): the move is what is checked
    {
      CountsDestruction value(&destroyed);
      opm::util::free_at_exit(std::move(value));
    }
    CHECK(destroyed == 0);
  }
}
