#include "util/go_sort.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The keys of the golden file's inputs: a modulus gives (i*7919 + i*i*31) % m, a shape name
// one of the patterns that drive pdqsort into pattern breaking.
std::vector<int> keys_for(const std::string& shape, int n) {
  std::vector<int> keys(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    int key = 0;
    if (shape == "desc") {
      key = (n - i) / 3;
    } else if (shape == "pipe") {
      key = i < n / 2 ? i / 2 : (n - i) / 2;
    } else if (shape == "saw") {
      key = i % 17;
    } else {
      key =
          static_cast<int>((static_cast<long long>(i) * 7919 + static_cast<long long>(i) * i * 31) %
                           std::stoi(shape));
    }
    keys[static_cast<std::size_t>(i)] = key;
  }
  return keys;
}

std::string sorted_order(const std::string& shape, int n) {
  const auto keys = keys_for(shape, n);
  std::vector<int> idx(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    idx[static_cast<std::size_t>(i)] = i;
  }
  opm::util::go_sort_slice(idx, [&](int a, int b) {
    return keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)];
  });
  std::string out;
  for (std::size_t i = 0; i < idx.size(); ++i) {
    out += (i > 0 ? "," : "") + std::to_string(idx[i]);
  }
  return out;
}

} // namespace

TEST_CASE("go_sort_slice leaves ties in the order Go's sort.Slice leaves them") {
  std::ifstream golden(std::string(OPM_TEST_DATA_DIR) + "/util/go_sort_slice.txt");
  REQUIRE(golden);
  std::string line;
  int cases = 0;
  while (std::getline(golden, line)) {
    std::istringstream fields(line);
    std::string shape;
    int n = 0;
    std::string expected;
    fields >> shape >> n >> expected;
    INFO("shape " << shape << ", length " << n);
    CHECK(sorted_order(shape, n) == expected);
    ++cases;
  }
  CHECK(cases == 683);
}

TEST_CASE("go_sort_slice sorts") {
  std::vector<int> v{5, 3, 9, 1, 1, 0, 7, 2, 8, 6, 4, 3, 2, 1, 9, 0, 11, 12};
  opm::util::go_sort_slice(v, [](int a, int b) { return a < b; });
  CHECK(std::is_sorted(v.begin(), v.end()));
}
