#pragma once

#include "json/value.hpp"

#include <string>
#include <string_view>

namespace opm::json {

struct Style {
  int indent = 0;           // 0 = compact
  bool escape_html = false; // <, >, & as \u003c \u003e \u0026 (Go's default encoder)
};
// Go encoding/json text of a value (shortest float64 formatting, Go string escaping).
void append(std::string& out, const Json& v, Style style = {});
std::string to_text(const Json& v, Style style = {});

// Writes JSON text as Go's encoding/json does, compact or indented like json.Indent with an
// empty prefix: one member or element per line, "key": value, empty containers as {} / [].
class Writer {
public:
  Writer(std::string& out, Style style) : m_out(out), m_style(style) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view name);
  void string(std::string_view text);
  void literal(std::string_view text); // null, true, false or a number, written as is
  void value(const Json& v);
  // Valid compact JSON text written as is, only laid out (json.Indent at this depth).
  void raw(std::string_view compact);

private:
  void scalar(const Json& v);
  void before_value();
  void new_line();
  [[nodiscard]] std::size_t indent_width() const;

  std::string& m_out;
  Style m_style;
  int m_depth = 0;
  bool m_empty = true;      // nothing written yet in the innermost container
  bool m_after_key = false; // a member name was written, its value comes next
};

} // namespace opm::json
