#include "sqlite/detail/stored_json.hpp"

#include "json/text.hpp"

namespace opm::sqlite::detail {

Result<std::vector<std::string>> split_objects(std::string_view text) {
  std::vector<std::string> objects;
  std::size_t pos = json::text::skip_space(text, 0);
  while (pos < text.size()) {
    auto end = json::text::value_end(text, pos);
    if (!end) {
      return util::fail(Errc::invalid, "invalid character in stored bundle objects");
    }
    objects.emplace_back(text.substr(pos, *end - pos));
    pos = json::text::skip_space(text, *end);
  }
  return objects;
}

std::string string_member(std::string_view object, std::initializer_list<std::string_view> path) {
  auto raw = json::text::find_raw(object, path);
  if (raw.empty() || raw.front() != '"') {
    return {};
  }
  auto parsed = json::text::parse(raw);
  return parsed && parsed->is_string() ? parsed->get<std::string>() : std::string();
}

} // namespace opm::sqlite::detail
