#include "util/avx2.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

using opm::util::LineBreakFinder;

namespace {

// Every line end of `text` found from the start, then from each of `starts` in turn.
std::vector<std::size_t> ends_of(const std::string& text, const std::vector<std::size_t>& starts,
                                 bool avx2) {
  opm::util::set_avx2_enabled(avx2);
  std::vector<std::size_t> out;
  LineBreakFinder finder(text);
  for (std::size_t pos = 0; pos < text.size();) {
    out.push_back(finder.next(pos));
    pos = out.back() + 1;
  }
  for (std::size_t start : starts) {
    out.push_back(finder.next(start));
  }
  opm::util::set_avx2_enabled(true);
  return out;
}

std::string text_with_breaks(std::size_t size, std::size_t stride, std::size_t seed) {
  std::string text(size, 'x');
  for (std::size_t at = seed % stride; at < size; at += stride + (at * seed) % 7) {
    text[at] = '\n';
  }
  return text;
}

} // namespace

TEST_SUITE("line break finder") {
  TEST_CASE("finds the same line ends with and without AVX2") {
    const std::vector<std::size_t> starts = {5, 0, 63, 64, 65, 127, 128, 300, 2, 1000, 199};
    for (std::size_t size : {0UL, 1UL, 63UL, 64UL, 65UL, 130UL, 200UL, 1000UL, 1001UL}) {
      for (std::size_t stride : {1UL, 3UL, 31UL, 64UL, 65UL, 150UL, 2000UL}) {
        for (std::size_t seed = 0; seed < 4; ++seed) {
          const std::string text = text_with_breaks(size, stride, seed);
          std::vector<std::size_t> in_range;
          for (std::size_t s : starts) {
            if (s <= size) {
              in_range.push_back(s);
            }
          }
          INFO("size ", size, " stride ", stride, " seed ", seed);
          const auto wide = ends_of(text, in_range, true);
          CHECK(wide == ends_of(text, in_range, false));
        }
      }
    }
  }

  TEST_CASE("a text without line breaks ends at its size") {
    const std::string text(300, 'y');
    LineBreakFinder finder(text);
    CHECK(finder.next(0) == 300);
    CHECK(finder.next(299) == 300);
    CHECK(finder.next(300) == 300);
  }

  TEST_CASE("line ends across 64-byte steps") {
    std::string text(256, 'z');
    for (std::size_t at : {0UL, 63UL, 64UL, 127UL, 200UL}) {
      text[at] = '\n';
    }
    LineBreakFinder finder(text);
    CHECK(finder.next(0) == 0);
    CHECK(finder.next(1) == 63);
    CHECK(finder.next(64) == 64);
    CHECK(finder.next(65) == 127);
    CHECK(finder.next(128) == 200);
    CHECK(finder.next(201) == 256);
    CHECK(finder.next(10) == 63); // back before the window: found again from there
  }
}
