#include "json/text.hpp"

#include "json/parse.hpp"
#include "json/writer.hpp"
#include "util/go_parse.hpp"
#include "util/strings.hpp"

#include <cstring>

namespace opm::json::text {

namespace {

constexpr int k_max_depth = 10000; // Go's encoding/json nesting limit

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_hex(char c) {
  return util::is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class Scanner {
public:
  explicit Scanner(std::string_view text) : m_text(text) {}

  // End of the value at `pos` (no leading whitespace), or npos.
  std::size_t value(std::size_t pos, int depth) {
    if (pos >= m_text.size() || depth > k_max_depth) {
      return npos;
    }
    switch (m_text[pos]) {
    case '{':
      return object(pos, depth + 1);
    case '[':
      return array(pos, depth + 1);
    case '"':
      return string(pos);
    case 't':
      return literal(pos, "true");
    case 'f':
      return literal(pos, "false");
    case 'n':
      return literal(pos, "null");
    default:
      return number(pos);
    }
  }

  static constexpr std::size_t npos = std::string_view::npos;

private:
  std::size_t ws(std::size_t pos) const { return skip_space(m_text, pos); }

  std::size_t object(std::size_t pos, int depth) {
    pos = ws(pos + 1);
    if (pos < m_text.size() && m_text[pos] == '}') {
      return pos + 1;
    }
    while (true) {
      if (pos >= m_text.size() || m_text[pos] != '"') {
        return npos;
      }
      pos = string(pos);
      if (pos == npos) {
        return npos;
      }
      pos = ws(pos);
      if (pos >= m_text.size() || m_text[pos] != ':') {
        return npos;
      }
      pos = value(ws(pos + 1), depth);
      if (pos == npos) {
        return npos;
      }
      pos = ws(pos);
      if (pos >= m_text.size()) {
        return npos;
      }
      if (m_text[pos] == '}') {
        return pos + 1;
      }
      if (m_text[pos] != ',') {
        return npos;
      }
      pos = ws(pos + 1);
    }
  }

  std::size_t array(std::size_t pos, int depth) {
    pos = ws(pos + 1);
    if (pos < m_text.size() && m_text[pos] == ']') {
      return pos + 1;
    }
    while (true) {
      pos = value(pos, depth);
      if (pos == npos) {
        return npos;
      }
      pos = ws(pos);
      if (pos >= m_text.size()) {
        return npos;
      }
      if (m_text[pos] == ']') {
        return pos + 1;
      }
      if (m_text[pos] != ',') {
        return npos;
      }
      pos = ws(pos + 1);
    }
  }

  std::size_t string(std::size_t pos) const {
    ++pos; // opening quote
    while (pos < m_text.size()) {
      auto c = static_cast<unsigned char>(m_text[pos]);
      if (c == '"') {
        return pos + 1;
      }
      if (c < 0x20) {
        return npos;
      }
      if (c != '\\') {
        ++pos;
        continue;
      }
      if (pos + 1 >= m_text.size()) {
        return npos;
      }
      char e = m_text[pos + 1];
      if (e == 'u') {
        if (pos + 6 > m_text.size()) {
          return npos;
        }
        for (std::size_t i = pos + 2; i < pos + 6; ++i) {
          if (!is_hex(m_text[i])) {
            return npos;
          }
        }
        pos += 6;
        continue;
      }
      if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' &&
          e != 't') {
        return npos;
      }
      pos += 2;
    }
    return npos;
  }

  std::size_t literal(std::size_t pos, std::string_view word) const {
    return m_text.substr(pos, word.size()) == word ? pos + word.size() : npos;
  }

  std::size_t number(std::size_t pos) const {
    auto at = [&](std::size_t i) { return i < m_text.size() ? m_text[i] : '\0'; };
    if (at(pos) == '-') {
      ++pos;
    }
    if (at(pos) == '0') {
      ++pos;
    } else if (util::is_ascii_digit(at(pos))) {
      while (util::is_ascii_digit(at(pos))) {
        ++pos;
      }
    } else {
      return npos;
    }
    if (at(pos) == '.') {
      ++pos;
      if (!util::is_ascii_digit(at(pos))) {
        return npos;
      }
      while (util::is_ascii_digit(at(pos))) {
        ++pos;
      }
    }
    if (at(pos) == 'e' || at(pos) == 'E') {
      ++pos;
      if (at(pos) == '+' || at(pos) == '-') {
        ++pos;
      }
      if (!util::is_ascii_digit(at(pos))) {
        return npos;
      }
      while (util::is_ascii_digit(at(pos))) {
        ++pos;
      }
    }
    return pos;
  }

  std::string_view m_text;
};

// Invalid UTF-8 bytes become U+FFFD, as Go's decoder reads strings.
std::string sanitize_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    bool valid = true;
    std::size_t start = i;
    char32_t cp = util::decode_utf8(text, i, &valid);
    if (valid) {
      out.append(text.substr(start, i - start));
    } else {
      util::append_utf8(out, cp);
    }
  }
  return out;
}

// The four hex digits at `raw[i]`, or -1.
int hex4(std::string_view raw, std::size_t i) {
  if (i + 4 > raw.size()) {
    return -1;
  }
  auto value = util::parse_go_uint(raw.substr(i, 4), 16);
  return value ? static_cast<int>(*value) : -1;
}

// The escape at `raw[i]` (a backslash) appended to `out`; where the string goes on, or npos.
std::size_t decode_escape(std::string_view raw, std::size_t i, std::string& out) {
  constexpr std::size_t npos = std::string_view::npos;
  if (i + 1 >= raw.size()) {
    return npos;
  }
  static constexpr std::string_view k_from = "\"\\/bfnrt";
  static constexpr std::string_view k_to = "\"\\/\b\f\n\r\t";
  if (auto simple = k_from.find(raw[i + 1]); simple != std::string_view::npos) {
    out += k_to[simple];
    return i + 2;
  }
  if (raw[i + 1] != 'u') {
    return npos;
  }
  int unit = hex4(raw, i + 2);
  if (unit < 0) {
    return npos;
  }
  i += 6;
  auto cp = static_cast<char32_t>(unit);
  if (unit >= 0xD800 && unit < 0xDC00 && i + 1 < raw.size() && raw[i] == '\\' &&
      raw[i + 1] == 'u') {
    int low = hex4(raw, i + 2);
    if (low >= 0xDC00 && low < 0xE000) {
      cp = 0x10000 + ((static_cast<char32_t>(unit) - 0xD800) << 10) +
           (static_cast<char32_t>(low) - 0xDC00);
      i += 6;
    }
  }
  if (cp >= 0xD800 && cp < 0xE000) {
    cp = 0xFFFD;
  }
  util::append_utf8(out, cp);
  return i;
}

} // namespace

std::optional<std::string> string_value(std::string_view raw) {
  if (raw.size() < 2 || raw.front() != '"') {
    return std::nullopt;
  }
  std::string out;
  out.reserve(raw.size() - 2);
  std::size_t i = 1;
  while (i < raw.size()) {
    std::size_t run = i;
    while (run < raw.size()) {
      auto c = static_cast<unsigned char>(raw[run]);
      if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) {
        break;
      }
      ++run;
    }
    out.append(raw.substr(i, run - i));
    i = run;
    if (i >= raw.size()) {
      return std::nullopt;
    }
    auto c = static_cast<unsigned char>(raw[i]);
    if (c == '"') {
      if (i + 1 != raw.size()) {
        return std::nullopt;
      }
      return out;
    }
    if (c < 0x20) {
      return std::nullopt;
    }
    if (c == '\\') {
      i = decode_escape(raw, i, out);
      if (i == std::string_view::npos) {
        return std::nullopt;
      }
      continue;
    }
    bool valid = true;
    std::size_t start = i;
    char32_t cp = util::decode_utf8(raw, i, &valid);
    if (valid) {
      out.append(raw.substr(start, i - start));
    } else {
      util::append_utf8(out, cp);
    }
  }
  return std::nullopt;
}

std::size_t skip_space(std::string_view text, std::size_t pos) {
  while (pos < text.size() && is_ws(text[pos])) {
    ++pos;
  }
  return pos;
}

std::optional<std::size_t> value_end(std::string_view text, std::size_t pos) {
  Scanner scanner(text);
  std::size_t end = scanner.value(skip_space(text, pos), 0);
  if (end == Scanner::npos) {
    return std::nullopt;
  }
  return end;
}

bool is_valid(std::string_view text) {
  auto end = value_end(text);
  return end && skip_space(text, *end) == text.size();
}

namespace {

// The end of the string literal opening at `pos` of valid JSON text.
std::size_t valid_string_end(std::string_view text, std::size_t pos) {
  std::size_t i = pos + 1;
  while (true) {
    const void* quote = std::memchr(text.data() + i, '"', text.size() - i);
    if (quote == nullptr) {
      return text.size();
    }
    std::size_t at = static_cast<std::size_t>(static_cast<const char*>(quote) - text.data());
    std::size_t backslashes = 0;
    while (at - backslashes > pos && text[at - backslashes - 1] == '\\') {
      ++backslashes;
    }
    if (backslashes % 2 == 0) {
      return at + 1;
    }
    i = at + 1;
  }
}

// value_end() for text known to be valid: the structure is followed, nothing is checked.
std::size_t valid_value_end(std::string_view text, std::size_t pos) {
  pos = skip_space(text, pos);
  if (pos >= text.size()) {
    return pos;
  }
  char first = text[pos];
  if (first == '"') {
    return valid_string_end(text, pos);
  }
  if (first != '{' && first != '[') {
    std::size_t end = text.find_first_of(",:]} \t\r\n", pos);
    return end == std::string_view::npos ? text.size() : end;
  }
  std::size_t depth = 0;
  for (std::size_t i = pos; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      i = valid_string_end(text, i) - 1;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return text.size();
}

std::optional<std::size_t> member_value_end(std::string_view text, std::size_t pos,
                                            Validity validity) {
  if (validity == Validity::known_valid) {
    return valid_value_end(text, pos);
  }
  return value_end(text, pos);
}

} // namespace

std::optional<std::vector<Member>> object_members(std::string_view raw, Validity validity) {
  std::size_t pos = skip_space(raw, 0);
  if (pos >= raw.size() || raw[pos] != '{') {
    return std::nullopt;
  }
  std::vector<Member> members;
  pos = skip_space(raw, pos + 1);
  if (pos < raw.size() && raw[pos] == '}') {
    return members;
  }
  while (pos < raw.size()) {
    auto key_end = member_value_end(raw, pos, validity);
    if (!key_end) {
      return std::nullopt;
    }
    auto key = string_value(raw.substr(pos, *key_end - pos));
    if (!key) {
      return std::nullopt;
    }
    pos = skip_space(raw, *key_end) + 1; // ':'
    pos = skip_space(raw, pos);
    auto end = member_value_end(raw, pos, validity);
    if (!end) {
      return std::nullopt;
    }
    members.push_back({std::move(*key), raw.substr(pos, *end - pos)});
    pos = skip_space(raw, *end);
    if (pos >= raw.size() || raw[pos] == '}') {
      break;
    }
    pos = skip_space(raw, pos + 1); // ','
  }
  return members;
}

std::optional<std::vector<std::string_view>> array_elements(std::string_view raw,
                                                            Validity validity) {
  std::size_t pos = skip_space(raw, 0);
  if (pos >= raw.size() || raw[pos] != '[') {
    return std::nullopt;
  }
  std::vector<std::string_view> elements;
  pos = skip_space(raw, pos + 1);
  if (pos < raw.size() && raw[pos] == ']') {
    return elements;
  }
  while (pos < raw.size()) {
    auto end = member_value_end(raw, pos, validity);
    if (!end) {
      return std::nullopt;
    }
    elements.push_back(raw.substr(pos, *end - pos));
    pos = skip_space(raw, *end);
    if (pos >= raw.size() || raw[pos] == ']') {
      break;
    }
    pos = skip_space(raw, pos + 1);
  }
  return elements;
}

std::string compact(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  bool in_string = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < raw.size()) {
        out += raw[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (is_ws(c)) {
      continue;
    }
    if (c == '"') {
      in_string = true;
    }
    out += c;
  }
  return out;
}

Result<Json> parse(std::string_view raw) {
  try {
    return parse_text(raw);
  } catch (const std::exception&) {
    // nlohmann refuses invalid UTF-8, which Go reads as U+FFFD.
  }
  try {
    return parse_text(sanitize_utf8(raw));
  } catch (const std::exception& e) {
    return util::fail(Errc::invalid, e.what());
  }
}

void Builder::separate() {
  if (m_need_comma) {
    m_out += ',';
  }
  m_need_comma = true;
}

Builder& Builder::begin_object() {
  separate();
  m_out += '{';
  m_need_comma = false;
  return *this;
}

Builder& Builder::end_object() {
  m_out += '}';
  m_need_comma = true;
  return *this;
}

Builder& Builder::begin_array() {
  separate();
  m_out += '[';
  m_need_comma = false;
  return *this;
}

Builder& Builder::end_array() {
  m_out += ']';
  m_need_comma = true;
  return *this;
}

Builder& Builder::key(std::string_view name) {
  separate();
  append(m_out, Json(name));
  m_out += ':';
  m_need_comma = false;
  return *this;
}

Builder& Builder::string(std::string_view s) {
  separate();
  append(m_out, Json(s));
  return *this;
}

Builder& Builder::boolean(bool b) {
  separate();
  m_out += b ? "true" : "false";
  return *this;
}

Builder& Builder::integer(long long n) {
  separate();
  m_out += std::to_string(n);
  return *this;
}

Builder& Builder::raw(std::string_view text) {
  separate();
  m_out += text;
  return *this;
}

Builder& Builder::value(const Json& v) {
  separate();
  append(m_out, v);
  return *this;
}

std::string_view find_raw(std::string_view text, std::initializer_list<std::string_view> path) {
  std::string_view current = text;
  for (std::string_view name : path) {
    auto members = object_members(current);
    if (!members) {
      return {};
    }
    std::string_view next;
    for (const auto& m : *members) {
      if (m.key == name) {
        next = m.value;
      }
    }
    if (next.data() == nullptr) {
      return {};
    }
    current = next;
  }
  return current;
}

} // namespace opm::json::text
