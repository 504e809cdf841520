#include "util/go_errors.hpp"

#include "util/strings.hpp"

#include <algorithm>

namespace opm::util {

std::string aggregate_text(const std::vector<std::string>& messages) {
  std::vector<std::string> unique;
  for (const auto& message : messages) {
    if (std::find(unique.begin(), unique.end(), message) == unique.end()) {
      unique.push_back(message);
    }
  }
  if (unique.size() == 1) {
    return unique.front();
  }
  return "[" + join(unique, ", ") + "]";
}

std::string aggregate_text(const std::vector<Error>& errors) {
  std::vector<std::string> messages;
  messages.reserve(errors.size());
  for (const auto& e : errors) {
    messages.push_back(e.message());
  }
  return aggregate_text(messages);
}

} // namespace opm::util
