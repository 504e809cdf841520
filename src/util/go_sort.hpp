#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

// Go's sort.Slice, step for step: where upstream sorts with it (not stable), elements that
// compare equal must end up in the order Go's pattern-defeating quicksort leaves them, or
// the output bytes differ. Insertion sort for up to 12 elements; pdqsort with Go's
// deterministic pattern breaking (an xorshift seeded with the length) beyond that; heapsort
// after too many bad pivots. The constants are those of the Go 1.19 standard library.
namespace opm::util {

namespace go_sort_detail {

enum class Hint { unknown, increasing, decreasing };

template <typename T, typename Less> class Sorter {
public:
  Sorter(std::span<T> data, Less& less) : m_data(data), m_less(less) {}

  void pdqsort(std::size_t a, std::size_t b, int limit) {
    constexpr std::size_t k_max_insertion = 12;
    bool was_balanced = true;
    bool was_partitioned = true;
    for (;;) {
      const std::size_t length = b - a;
      if (length <= k_max_insertion) {
        insertion_sort(a, b);
        return;
      }
      if (limit == 0) {
        heap_sort(a, b);
        return;
      }
      if (!was_balanced) {
        break_patterns(a, b);
        --limit;
      }
      auto [pivot, hint] = choose_pivot(a, b);
      if (hint == Hint::decreasing) {
        reverse_range(a, b);
        pivot = (b - 1) - (pivot - a);
        hint = Hint::increasing;
      }
      if (was_balanced && was_partitioned && hint == Hint::increasing &&
          partial_insertion_sort(a, b)) {
        return;
      }
      if (a > 0 && !less(a - 1, pivot)) {
        a = partition_equal(a, b, pivot);
        continue;
      }
      const auto [mid, already_partitioned] = partition(a, b, pivot);
      was_partitioned = already_partitioned;
      const std::size_t left = mid - a;
      const std::size_t right = b - mid;
      const std::size_t balance_threshold = length / 8;
      if (left < right) {
        was_balanced = left >= balance_threshold;
        pdqsort(a, mid, limit);
        a = mid + 1;
      } else {
        was_balanced = right >= balance_threshold;
        pdqsort(mid + 1, b, limit);
        b = mid;
      }
    }
  }

private:
  bool less(std::size_t i, std::size_t j) { return m_less(m_data[i], m_data[j]); }
  void swap(std::size_t i, std::size_t j) {
    using std::swap;
    swap(m_data[i], m_data[j]);
  }

  void insertion_sort(std::size_t a, std::size_t b) {
    for (std::size_t i = a + 1; i < b; ++i) {
      for (std::size_t j = i; j > a && less(j, j - 1); --j) {
        swap(j, j - 1);
      }
    }
  }

  void sift_down(std::size_t root, std::size_t hi, std::size_t first) {
    for (;;) {
      std::size_t child = 2 * root + 1;
      if (child >= hi) {
        return;
      }
      if (child + 1 < hi && less(first + child, first + child + 1)) {
        ++child;
      }
      if (!less(first + root, first + child)) {
        return;
      }
      swap(first + root, first + child);
      root = child;
    }
  }

  void heap_sort(std::size_t a, std::size_t b) {
    const std::size_t hi = b - a;
    for (std::size_t i = (hi - 1) / 2 + 1; i-- > 0;) {
      sift_down(i, hi, a);
    }
    for (std::size_t i = hi; i-- > 0;) {
      swap(a, a + i);
      sift_down(0, i, a);
    }
  }

  // Returns the new pivot position and whether nothing had to move.
  std::pair<std::size_t, bool> partition(std::size_t a, std::size_t b, std::size_t pivot) {
    swap(a, pivot);
    // i and j are signed: j can step below a + 1 when everything is smaller.
    auto i = static_cast<std::ptrdiff_t>(a + 1);
    auto j = static_cast<std::ptrdiff_t>(b - 1);
    const auto at = [](std::ptrdiff_t k) { return static_cast<std::size_t>(k); };
    while (i <= j && less(at(i), a)) {
      ++i;
    }
    while (i <= j && !less(at(j), a)) {
      --j;
    }
    if (i > j) {
      swap(at(j), a);
      return {at(j), true};
    }
    swap(at(i), at(j));
    ++i;
    --j;
    for (;;) {
      while (i <= j && less(at(i), a)) {
        ++i;
      }
      while (i <= j && !less(at(j), a)) {
        --j;
      }
      if (i > j) {
        break;
      }
      swap(at(i), at(j));
      ++i;
      --j;
    }
    swap(at(j), a);
    return {at(j), false};
  }

  // Elements equal to the pivot first, then the greater ones; none is smaller.
  std::size_t partition_equal(std::size_t a, std::size_t b, std::size_t pivot) {
    swap(a, pivot);
    auto i = static_cast<std::ptrdiff_t>(a + 1);
    auto j = static_cast<std::ptrdiff_t>(b - 1);
    const auto at = [](std::ptrdiff_t k) { return static_cast<std::size_t>(k); };
    for (;;) {
      while (i <= j && !less(a, at(i))) {
        ++i;
      }
      while (i <= j && less(a, at(j))) {
        --j;
      }
      if (i > j) {
        break;
      }
      swap(at(i), at(j));
      ++i;
      --j;
    }
    return at(i);
  }

  // True when the range is sorted after shifting at most a few misplaced elements.
  bool partial_insertion_sort(std::size_t a, std::size_t b) {
    constexpr int k_max_steps = 5;
    constexpr std::size_t k_shortest_shifting = 50;
    std::size_t i = a + 1;
    for (int step = 0; step < k_max_steps; ++step) {
      while (i < b && !less(i, i - 1)) {
        ++i;
      }
      if (i == b) {
        return true;
      }
      if (b - a < k_shortest_shifting) {
        return false;
      }
      swap(i, i - 1);
      if (i - a >= 2) {
        // Go walks down to index 1 of the whole slice here, not to a + 1.
        for (std::size_t j = i - 1; j >= 1; --j) {
          if (!less(j, j - 1)) {
            break;
          }
          swap(j, j - 1);
        }
      }
      if (b - i >= 2) {
        for (std::size_t j = i + 1; j < b; ++j) {
          if (!less(j, j - 1)) {
            break;
          }
          swap(j, j - 1);
        }
      }
    }
    return false;
  }

  void break_patterns(std::size_t a, std::size_t b) {
    const std::size_t length = b - a;
    if (length < 8) {
      return;
    }
    std::uint64_t random = length;
    const std::uint64_t modulus = std::uint64_t{1} << std::bit_width(length);
    for (std::size_t idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; ++idx) {
      random ^= random << 13;
      random ^= random >> 17;
      random ^= random << 5;
      auto other = static_cast<std::size_t>(random & (modulus - 1));
      if (other >= length) {
        other -= length;
      }
      swap(idx, a + other);
    }
  }

  std::pair<std::size_t, Hint> choose_pivot(std::size_t a, std::size_t b) {
    constexpr std::size_t k_shortest_ninther = 50;
    constexpr int k_max_swaps = 4 * 3;
    const std::size_t l = b - a;
    int swaps = 0;
    std::size_t i = a + l / 4 * 1;
    std::size_t j = a + l / 4 * 2;
    std::size_t k = a + l / 4 * 3;
    if (l >= 8) {
      if (l >= k_shortest_ninther) {
        i = median(i - 1, i, i + 1, swaps);
        j = median(j - 1, j, j + 1, swaps);
        k = median(k - 1, k, k + 1, swaps);
      }
      j = median(i, j, k, swaps);
    }
    if (swaps == 0) {
      return {j, Hint::increasing};
    }
    if (swaps == k_max_swaps) {
      return {j, Hint::decreasing};
    }
    return {j, Hint::unknown};
  }

  // The index, among a, b and c, of the median element; counts the swaps it would make.
  std::size_t median(std::size_t a, std::size_t b, std::size_t c, int& swaps) {
    order(a, b, swaps);
    order(b, c, swaps);
    order(a, b, swaps);
    return b;
  }

  void order(std::size_t& x, std::size_t& y, int& swaps) {
    if (less(y, x)) {
      ++swaps;
      std::swap(x, y);
    }
  }

  void reverse_range(std::size_t a, std::size_t b) {
    for (std::size_t i = a, j = b - 1; i < j; ++i, --j) {
      swap(i, j);
    }
  }

  std::span<T> m_data;
  Less& m_less;
};

} // namespace go_sort_detail

// sort.Slice(data, less) with `less` taking two elements.
template <typename T, typename Less> void go_sort_slice(std::span<T> data, Less less) {
  const std::size_t length = data.size();
  go_sort_detail::Sorter<T, Less>(data, less)
      .pdqsort(0, length, static_cast<int>(std::bit_width(length)));
}

template <typename Container, typename Less> void go_sort_slice(Container& data, Less less) {
  go_sort_slice(std::span(data), std::move(less));
}

} // namespace opm::util
