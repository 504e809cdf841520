// Placeholder writers until the byte-exact writers land; compact dumps only.
#include "catalog/write.hpp"

namespace opm::catalog {
void write(const DeclarativeConfig&, Format, std::ostream&) {}
void append_json(std::string& out, const Json& v, JsonStyle style) {
  out += v.dump(style.indent == 0 ? -1 : style.indent);
}
std::string to_json(const Json& v, JsonStyle style) {
  std::string out;
  append_json(out, v, style);
  return out;
}
void append_yaml(std::string& out, const Json& v) { out += v.dump(); }
} // namespace opm::catalog
