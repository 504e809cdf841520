// Placeholder decoder until the real one lands: JSON only.
#include "catalog/decode.hpp"

namespace opm::catalog {
Result<std::vector<Document>> decode_stream(std::string_view text, std::string_view name) {
  std::vector<Document> docs;
  if (text.empty()) {
    return docs;
  }
  try {
    docs.push_back({Json::parse(text), 1});
  } catch (const std::exception& e) {
    return util::fail(Errc::invalid, e.what(), Location{std::string(name), 1, 0});
  }
  return docs;
}
Result<Json> yaml_to_json(std::string_view text) {
  try {
    return Json::parse(text);
  } catch (const std::exception& e) {
    return util::fail(Errc::invalid, e.what());
  }
}
} // namespace opm::catalog
