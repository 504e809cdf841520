#pragma once

#include <string>
#include <vector>

namespace opm::cmd {

// pflag's StringSlice: every value split on commas.
inline std::vector<std::string> split_values(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& v : values) {
    std::size_t start = 0;
    while (true) {
      auto comma = v.find(',', start);
      out.push_back(v.substr(start, comma - start));
      if (comma == std::string::npos) {
        break;
      }
      start = comma + 1;
    }
  }
  return out;
}

// A string list as Go's %v prints it: "[a b c]".
inline std::string go_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : " ") + items[i];
  }
  return out + "]";
}

} // namespace opm::cmd
