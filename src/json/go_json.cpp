#include "json/go_json.hpp"

#include "json/pending_members.hpp"
#include "json/unmarshal.hpp"
#include "json/writer.hpp"
#include "util/go_format.hpp"
#include "util/go_parse.hpp"
#include "util/strings.hpp"
#include "util/swar.hpp"

#include <fmt/format.h>

#include <charconv>
#include <vector>

namespace opm::json {

namespace {

// Go's encoding/json maxNestingDepth.
constexpr std::size_t k_max_depth = 10000;

bool is_json_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Thrown inside the reader only, caught in read_stream_value.
struct SyntaxFailure {
  std::string message;
  std::size_t offset;
};
struct EofFailure {};

class StreamReader {
public:
  StreamReader(std::string_view text, std::size_t pos) : m_text(text), m_pos(pos) {}

  StreamValue read() {
    StreamValue out;
    skip_space();
    if (m_pos == m_text.size()) {
      out.status = StreamValue::Status::end;
      out.begin = out.end = m_pos;
      return out;
    }
    m_begin = m_pos;
    out.begin = m_pos;
    try {
      out.value = read_value();
      out.status = StreamValue::Status::value;
      out.end = m_pos;
      if (m_overflow) {
        out.overflow_number = std::move(m_overflow);
        out.overflow_offset = m_overflow_offset;
      }
    } catch (const SyntaxFailure& e) {
      out.status = StreamValue::Status::syntax_error;
      out.message = e.message;
      out.offset = e.offset;
    } catch (const EofFailure&) {
      out.status = StreamValue::Status::unexpected_eof;
    }
    return out;
  }

private:
  struct Frame {
    Json value;
    std::string key;
  };

  [[noreturn]] void fail(std::string_view context) const {
    if (m_pos >= m_text.size()) {
      throw EofFailure{};
    }
    throw SyntaxFailure{"invalid character " +
                            util::quote_char(static_cast<unsigned char>(m_text[m_pos])) + " " +
                            std::string(context),
                        m_pos + 1};
  }

  void skip_space() {
    while (m_pos < m_text.size() && is_json_space(m_text[m_pos])) {
      ++m_pos;
    }
  }

  char peek_required() const {
    if (m_pos >= m_text.size()) {
      throw EofFailure{};
    }
    return m_text[m_pos];
  }

  void push(Json value) {
    if (m_stack.size() + 1 > k_max_depth) {
      fail("exceeded max depth");
    }
    m_stack.push_back(Frame{std::move(value), {}});
    m_pending.at(m_stack.size()).clear();
    ++m_pos;
  }

  // After '{' or ',' in an object: a key string, then ':'.
  void read_key() {
    skip_space();
    if (peek_required() != '"') {
      fail("looking for beginning of object key string");
    }
    m_stack.back().key = read_string();
    skip_space();
    if (peek_required() != ':') {
      fail("after object key");
    }
    ++m_pos;
  }

  Json read_value() {
    while (true) {
      // A value starts here (after optional space).
      skip_space();
      char c = peek_required();
      Json value;
      switch (c) {
      case '{':
        push(Json::object());
        skip_space();
        if (peek_required() == '}') {
          ++m_pos;
          value = pop();
          break;
        }
        read_key();
        continue;
      case '[':
        push(Json::array());
        skip_space();
        if (peek_required() == ']') {
          ++m_pos;
          value = pop();
          break;
        }
        continue;
      case '"':
        value = read_string();
        break;
      case 't':
        read_literal("true");
        value = true;
        break;
      case 'f':
        read_literal("false");
        value = false;
        break;
      case 'n':
        read_literal("null");
        break;
      default:
        if (c == '-' || util::is_ascii_digit(c)) {
          value = read_number();
          break;
        }
        fail("looking for beginning of value");
      }
      // A value is complete: attach it and find what follows.
      while (true) {
        if (m_stack.empty()) {
          return value;
        }
        Frame& top = m_stack.back();
        bool object = top.value.is_object();
        if (object) {
          m_pending.at(m_stack.size()).emplace_back(std::move(top.key), std::move(value));
        } else {
          top.value.get_ref<Json::array_t&>().push_back(std::move(value));
        }
        skip_space();
        char next = peek_required();
        if (next == ',') {
          ++m_pos;
          if (object) {
            read_key();
          }
          break; // read the next value
        }
        if (next == (object ? '}' : ']')) {
          ++m_pos;
          value = pop();
          continue;
        }
        fail(object ? "after object key:value pair" : "after array element");
      }
    }
  }

  Json pop() {
    Json value = std::move(m_stack.back().value);
    if (value.is_object()) {
      value.get_ref<Json::object_t&>().take_members(m_pending.at(m_stack.size()));
    }
    m_stack.pop_back();
    return value;
  }

  void read_literal(std::string_view word) {
    ++m_pos;
    for (std::size_t i = 1; i < word.size(); ++i) {
      if (peek_required() != word[i]) {
        std::string context = "in literal ";
        context += word;
        context += " (expecting '";
        context += word[i];
        context += "')";
        fail(context);
      }
      ++m_pos;
    }
  }

  void digits() {
    while (m_pos < m_text.size() && util::is_ascii_digit(m_text[m_pos])) {
      ++m_pos;
    }
  }

  Json read_number() {
    std::size_t start = m_pos;
    bool integral = true;
    if (m_text[m_pos] == '-') {
      ++m_pos;
      if (!util::is_ascii_digit(peek_required())) {
        fail("in numeric literal");
      }
    }
    if (m_text[m_pos] == '0') {
      ++m_pos;
    } else {
      digits();
    }
    if (m_pos < m_text.size() && m_text[m_pos] == '.') {
      integral = false;
      ++m_pos;
      if (!util::is_ascii_digit(peek_required())) {
        fail("after decimal point in numeric literal");
      }
      digits();
    }
    if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
      integral = false;
      ++m_pos;
      char sign = peek_required();
      if (sign == '+' || sign == '-') {
        ++m_pos;
      }
      if (!util::is_ascii_digit(peek_required())) {
        fail("in exponent of numeric literal");
      }
      digits();
    }
    std::string_view text = m_text.substr(start, m_pos - start);
    if (integral && text != "-0") {
      std::int64_t i = 0;
      auto r = std::from_chars(text.data(), text.data() + text.size(), i);
      if (r.ec == std::errc()) {
        count_decoded_integer();
        return i;
      }
      std::uint64_t u = 0;
      r = std::from_chars(text.data(), text.data() + text.size(), u);
      if (r.ec == std::errc()) {
        count_decoded_integer();
        return u;
      }
    }
    auto f = util::parse_go_decimal_float(text);
    if (!f) {
      if (!m_overflow) {
        m_overflow = std::string(text);
        // Go's decoder reports the offset one past the byte that follows the number.
        m_overflow_offset = m_pos - m_begin + 1;
      }
      return 0.0;
    }
    return *f;
  }

  // At the opening quote; returns the decoded string and leaves m_pos after the closing one.
  std::string read_string() {
    ++m_pos;
    std::size_t start = m_pos;
    // Fast path: plain ASCII and valid UTF-8 without escapes is copied as is.
    const auto* bytes = reinterpret_cast<const unsigned char*>(m_text.data());
    while (true) {
      m_pos = util::swar::skip_json_string_plain(bytes, m_pos, m_text.size());
      if (m_pos >= m_text.size()) {
        throw EofFailure{};
      }
      auto c = static_cast<unsigned char>(m_text[m_pos]);
      if (c == '"') {
        std::string s(m_text.substr(start, m_pos - start));
        ++m_pos;
        return s;
      }
      if (c == '\\' || c < 0x20) {
        break;
      }
      std::size_t at = m_pos;
      bool valid = true;
      util::decode_utf8(m_text, at, &valid);
      if (!valid) {
        break;
      }
      m_pos = at;
    }
    std::string out(m_text.substr(start, m_pos - start));
    while (true) {
      // Runs of plain ASCII between escapes are copied whole.
      std::size_t run = util::swar::skip_json_string_plain(bytes, m_pos, m_text.size());
      out.append(m_text.substr(m_pos, run - m_pos));
      m_pos = run;
      if (m_pos >= m_text.size()) {
        throw EofFailure{};
      }
      auto c = static_cast<unsigned char>(m_text[m_pos]);
      if (c == '"') {
        ++m_pos;
        return out;
      }
      if (c < 0x20) {
        fail("in string literal");
      }
      if (c == '\\') {
        ++m_pos;
        read_escape(out);
        continue;
      }
      if (c < 0x80) {
        out += static_cast<char>(c);
        ++m_pos;
        continue;
      }
      std::size_t at = m_pos;
      bool valid = true;
      char32_t cp = util::decode_utf8(m_text, at, &valid);
      if (valid) {
        out.append(m_text.substr(m_pos, at - m_pos));
      } else {
        util::append_utf8(out, cp);
      }
      m_pos = at;
    }
  }

  // Four hex digits at m_pos, checked as Go's scanner does.
  int read_hex4() {
    int value = 0;
    for (int i = 0; i < 4; ++i) {
      int h = util::hex_digit_value(peek_required());
      if (h < 0) {
        fail("in \\u hexadecimal character escape");
      }
      value = value * 16 + h;
      ++m_pos;
    }
    return value;
  }

  // Decode \uXXXX at m_pos if it is there, without consuming it; -1 otherwise.
  int peek_u4() const {
    if (m_pos + 6 > m_text.size() || m_text[m_pos] != '\\' || m_text[m_pos + 1] != 'u') {
      return -1;
    }
    int value = 0;
    for (std::size_t i = 2; i < 6; ++i) {
      int h = util::hex_digit_value(m_text[m_pos + i]);
      if (h < 0) {
        return -1;
      }
      value = value * 16 + h;
    }
    return value;
  }

  void read_escape(std::string& out) {
    char c = peek_required();
    if (auto plain = util::simple_escape(c, util::Escapes::json)) {
      out += *plain;
      ++m_pos;
      return;
    }
    switch (c) {
    case 'u': {
      ++m_pos;
      auto rune = static_cast<char32_t>(read_hex4());
      if (rune >= 0xD800 && rune < 0xE000) {
        int next = peek_u4();
        if (rune < 0xDC00 && next >= 0xDC00 && next < 0xE000) {
          m_pos += 6;
          rune = 0x10000 + ((rune - 0xD800) << 10) + (static_cast<char32_t>(next) - 0xDC00);
        } else {
          rune = 0xFFFD;
        }
      }
      util::append_utf8(out, rune);
      return;
    }
    default:
      fail("in string escape code");
    }
    ++m_pos;
  }

  std::string_view m_text;
  PendingMembers m_pending;
  std::size_t m_pos;
  std::size_t m_begin = 0;
  std::vector<Frame> m_stack;
  std::optional<std::string> m_overflow;
  std::size_t m_overflow_offset = 0;
};

void append_newline(std::string& out, int depth) {
  out += '\n';
  for (int i = 0; i < depth; ++i) {
    out += "    ";
  }
}

} // namespace

StreamValue read_stream_value(std::string_view text, std::size_t pos) {
  return StreamReader(text, pos).read();
}

std::string marshal(const Json& root) { return to_text(root, {.indent = 0, .escape_html = true}); }

std::string indent(std::string_view src) {
  // Space between tokens is dropped. (Go keeps space after the top-level value, but the
  // texts indented here never have any.)
  std::string out;
  out.reserve(src.size() * 2);
  int depth = 0;
  bool need_indent = false;
  bool in_string = false;
  bool escaped = false;
  for (char c : src) {
    if (in_string) {
      out += c;
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (is_json_space(c)) {
      continue;
    }
    if (need_indent && c != '}' && c != ']') {
      need_indent = false;
      ++depth;
      append_newline(out, depth);
    }
    switch (c) {
    case '{':
    case '[':
      need_indent = true;
      out += c;
      break;
    case ',':
      out += c;
      append_newline(out, depth);
      break;
    case ':':
      out += ": ";
      break;
    case '}':
    case ']':
      if (need_indent) {
        need_indent = false;
      } else {
        --depth;
        append_newline(out, depth);
      }
      out += c;
      break;
    case '"':
      in_string = true;
      out += c;
      break;
    default:
      out += c;
      break;
    }
  }
  return out;
}

std::string pretty_unmarshal_error(std::string_view data, std::string_view message,
                                   std::size_t offset) {
  if (data.empty() || offset > data.size()) {
    return std::string(message);
  }
  constexpr std::string_view k_marker = " <==";
  std::string out(message);
  out += " at offset " + std::to_string(offset) + " (indicated by" + std::string(k_marker) + ")\n";
  std::string pretty = indent(data);
  if (offset == data.size()) {
    out += pretty;
    out += k_marker;
    return out;
  }
  std::size_t p_index = 0;
  std::size_t p_offset = 0;
  for (std::size_t d_index = 0; d_index < data.size(); ++d_index) {
    if (d_index == offset) {
      p_offset = p_index;
      break;
    }
    while (pretty[p_index] != data[d_index]) {
      ++p_index;
      if (p_index >= pretty.size()) {
        return std::string(message);
      }
    }
    ++p_index;
  }
  out.append(pretty, 0, p_offset);
  out += k_marker;
  out += ' ';
  out.append(pretty, p_offset);
  return out;
}

std::optional<std::string> map_type_error(const Json& value, std::string_view blob) {
  if (value.is_object() || value.is_null()) {
    return std::nullopt;
  }
  // Go reports an array at its opening bracket, other values once they are read whole.
  const std::size_t offset = value.is_array() ? 1 : blob.size();
  return pretty_unmarshal_error(
      blob, type_error(kind_name(value), "", "", "map[string]interface {}"), offset);
}

std::optional<char> too_deep(const Json& value) {
  struct Level {
    const Json* value;
    Json::const_iterator next;
  };
  if (!value.is_structured()) {
    return std::nullopt;
  }
  std::vector<Level> stack{{&value, value.begin()}};
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.value->end()) {
      stack.pop_back();
      continue;
    }
    const Json& child = *level.next++;
    if (!child.is_structured()) {
      continue;
    }
    if (stack.size() + 1 > k_max_depth) {
      return child.is_object() ? '{' : '[';
    }
    stack.push_back({&child, child.begin()});
  }
  return std::nullopt;
}

std::string overflow_error(std::string_view blob, std::string_view number, std::size_t offset) {
  return pretty_unmarshal_error(
      blob, type_error(fmt::format("number {}", number), "", "", "float64"), offset);
}

} // namespace opm::json
