#include "json/writer.hpp"

#include "util/go_format.hpp"

#include <charconv>
#include <cstring>
#include <vector>

namespace opm::json {

void Writer::new_line() {
  if (m_style.indent > 0) {
    const std::size_t before = m_out.size();
    const std::size_t spaces = indent_width();
    const std::size_t after = before + 1 + spaces;
    // The size is returned as computed: GCC 12's libstdc++ passes the new capacity, not the
    // size asked for, where the string grows.
    m_out.resize_and_overwrite(after, [&](char* buf, std::size_t) {
      buf[before] = '\n';
      std::memset(buf + before + 1, ' ', spaces);
      return after;
    });
  }
}

std::size_t Writer::indent_width() const {
  return static_cast<std::size_t>(m_depth) * static_cast<std::size_t>(m_style.indent);
}

void Writer::before_value() {
  if (m_after_key) {
    m_after_key = false;
    return;
  }
  if (m_depth == 0) {
    return;
  }
  if (!m_empty) {
    m_out.push_back(',');
  }
  m_empty = false;
  new_line();
}

void Writer::begin_object() {
  before_value();
  m_out.push_back('{');
  ++m_depth;
  m_empty = true;
}

void Writer::end_object() {
  --m_depth;
  if (!m_empty) {
    new_line();
  }
  m_out.push_back('}');
  m_empty = false;
}

void Writer::begin_array() {
  before_value();
  m_out.push_back('[');
  ++m_depth;
  m_empty = true;
}

void Writer::end_array() {
  --m_depth;
  if (!m_empty) {
    new_line();
  }
  m_out.push_back(']');
  m_empty = false;
}

void Writer::key(std::string_view name) {
  // The comma, the line break and indent, the name and its colon, in one step.
  const std::size_t before = m_out.size();
  const bool indented = m_style.indent > 0;
  const std::size_t spaces = indented ? indent_width() : 0;
  m_out.resize_and_overwrite(before + 4 + spaces + util::json_string_room(name.size()),
                             [&](char* buf, std::size_t) {
                               char* at = buf + before;
                               if (!m_empty) {
                                 *at++ = ',';
                               }
                               if (indented) {
                                 *at++ = '\n';
                                 std::memset(at, ' ', spaces);
                                 at += spaces;
                               }
                               at = util::write_json_string(at, name, m_style.escape_html);
                               *at++ = ':';
                               if (indented) {
                                 *at++ = ' ';
                               }
                               return static_cast<std::size_t>(at - buf);
                             });
  m_empty = false;
  m_after_key = true;
}

void Writer::string(std::string_view text) {
  before_value();
  util::append_json_string(m_out, text, m_style.escape_html);
}

void Writer::literal(std::string_view text) {
  before_value();
  m_out.append(text);
}

void Writer::raw(std::string_view compact) {
  before_value();
  if (m_style.indent <= 0) {
    m_out.append(compact);
    return;
  }
  const int base = m_depth;
  bool in_string = false;
  bool open = false; // a '{' or '[' was just written
  auto line = [&](int depth) {
    m_out.push_back('\n');
    m_out.append(static_cast<std::size_t>(depth) * static_cast<std::size_t>(m_style.indent), ' ');
  };
  int depth = base;
  for (std::size_t i = 0; i < compact.size(); ++i) {
    const char c = compact[i];
    if (in_string) {
      m_out.push_back(c);
      if (c == '\\' && i + 1 < compact.size()) {
        m_out.push_back(compact[++i]);
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (open && c != '}' && c != ']') {
      open = false;
      line(++depth);
    }
    switch (c) {
    case '{':
    case '[':
      open = true;
      m_out.push_back(c);
      break;
    case '}':
    case ']':
      if (open) {
        open = false;
      } else {
        line(--depth);
      }
      m_out.push_back(c);
      break;
    case ',':
      m_out.push_back(c);
      line(depth);
      break;
    case ':':
      m_out.append(": ");
      break;
    case '"':
      in_string = true;
      m_out.push_back(c);
      break;
    default:
      m_out.push_back(c);
    }
  }
}

void Writer::scalar(const Json& v) {
  switch (v.type()) {
  case Json::value_t::string:
    string(v.get_ref<const std::string&>());
    return;
  case Json::value_t::boolean:
    literal(v.get<bool>() ? "true" : "false");
    return;
  case Json::value_t::number_integer:
  case Json::value_t::number_unsigned: {
    char buf[24];
    const auto res = v.is_number_unsigned()
                         ? std::to_chars(buf, buf + sizeof buf, v.get<std::uint64_t>())
                         : std::to_chars(buf, buf + sizeof buf, v.get<std::int64_t>());
    literal(std::string_view(buf, static_cast<std::size_t>(res.ptr - buf)));
    return;
  }
  case Json::value_t::number_float:
    before_value();
    util::append_json_float(m_out, v.get<double>());
    return;
  default:
    literal("null");
    return;
  }
}

void Writer::value(const Json& root) {
  if (!root.is_structured()) {
    scalar(root);
    return;
  }
  // Iterative, so that deeply nested values cannot exhaust the stack.
  struct Level {
    const Json* value;
    Json::const_iterator next;
  };
  std::vector<Level> stack;
  auto open = [&](const Json& v) {
    if (v.is_object()) {
      begin_object();
      stack.push_back({&v, v.begin()});
    } else if (v.is_array()) {
      begin_array();
      stack.push_back({&v, v.begin()});
    } else {
      scalar(v);
    }
  };
  open(root);
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.value->end()) {
      if (level.value->is_object()) {
        end_object();
      } else {
        end_array();
      }
      stack.pop_back();
      continue;
    }
    auto it = level.next++;
    if (level.value->is_object()) {
      key(it.key());
    }
    open(*it);
  }
}

void append(std::string& out, const Json& v, Style style) {
  Writer w(out, style);
  w.value(v);
}

std::string to_text(const Json& v, Style style) {
  std::string out;
  append(out, v, style);
  return out;
}

} // namespace opm::json
