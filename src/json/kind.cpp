#include "json/kind.hpp"

#include "util/strings.hpp"
#include "util/swar.hpp"

#include <vector>

namespace opm::json {

namespace {

class Scanner {
public:
  explicit Scanner(std::string_view text) : m_text(text) {}

  std::optional<std::string> run() {
    std::vector<char> stack; // '{' or '['
    std::string kind;
    bool at_kind = false;
    skip_space();
    for (;;) {
      // A value starts here.
      if (m_pos >= m_text.size()) {
        return std::nullopt;
      }
      char c = m_text[m_pos];
      bool is_kind_value = at_kind;
      at_kind = false;
      if (c == '{' || c == '[') {
        ++m_pos;
        skip_space();
        char close = c == '{' ? '}' : ']';
        if (m_pos < m_text.size() && m_text[m_pos] == close) {
          ++m_pos;
        } else {
          stack.push_back(c);
          if (c == '{') {
            if (!read_key(stack.size() == 1, at_kind)) {
              return std::nullopt;
            }
          }
          continue;
        }
      } else if (c == '"') {
        std::string* into = is_kind_value ? &kind : nullptr;
        if (into != nullptr) {
          into->clear();
        }
        if (!read_string(into)) {
          return std::nullopt;
        }
      } else if (!read_scalar()) {
        return std::nullopt;
      }
      // A value is complete: find what follows.
      for (;;) {
        skip_space();
        if (stack.empty()) {
          return m_pos == m_text.size() ? std::optional<std::string>(kind) : std::nullopt;
        }
        if (m_pos >= m_text.size()) {
          return std::nullopt;
        }
        char next = m_text[m_pos++];
        if (next == ',') {
          if (stack.back() == '{') {
            skip_space();
            if (!read_key(stack.size() == 1, at_kind)) {
              return std::nullopt;
            }
          }
          break;
        }
        if (next != (stack.back() == '{' ? '}' : ']')) {
          return std::nullopt;
        }
        stack.pop_back();
      }
    }
  }

private:
  void skip_space() {
    while (m_pos < m_text.size()) {
      char c = m_text[m_pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      ++m_pos;
    }
  }

  // A key and its colon; notes whether it is the top level's "kind".
  bool read_key(bool top_level, bool& at_kind) {
    if (m_pos >= m_text.size() || m_text[m_pos] != '"') {
      return false;
    }
    std::string key;
    if (!read_string(top_level ? &key : nullptr)) {
      return false;
    }
    at_kind = top_level && key == "kind";
    skip_space();
    if (m_pos >= m_text.size() || m_text[m_pos] != ':') {
      return false;
    }
    ++m_pos;
    skip_space();
    return true;
  }

  int hex4() {
    if (m_text.size() - m_pos < 4) {
      return -1;
    }
    int v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = m_text[m_pos++];
      int h = util::hex_digit_value(c);
      if (h < 0) {
        return -1;
      }
      v = v * 16 + h;
    }
    return v;
  }

  // At the opening quote; decodes into `out` when given.
  bool read_string(std::string* out) {
    ++m_pos;
    const auto* p = reinterpret_cast<const unsigned char*>(m_text.data());
    for (;;) {
      std::size_t start = m_pos;
      m_pos = util::swar::skip_json_string_plain(p, m_pos, m_text.size());
      if (out != nullptr) {
        out->append(m_text.substr(start, m_pos - start));
      }
      if (m_pos >= m_text.size()) {
        return false;
      }
      unsigned char c = p[m_pos];
      if (c == '"') {
        ++m_pos;
        return true;
      }
      if (c < 0x20) {
        return false;
      }
      if (c >= 0x80) {
        std::size_t at = m_pos;
        bool valid = true;
        util::decode_utf8(m_text, at, &valid);
        if (!valid) {
          return false;
        }
        if (out != nullptr) {
          out->append(m_text.substr(m_pos, at - m_pos));
        }
        m_pos = at;
        continue;
      }
      if (!read_escape(out)) {
        return false;
      }
    }
  }

  // At a backslash.
  bool read_escape(std::string* out) {
    ++m_pos;
    if (m_pos >= m_text.size()) {
      return false;
    }
    char e = m_text[m_pos++];
    if (auto plain = util::simple_escape(e, util::Escapes::json)) {
      if (out != nullptr) {
        *out += *plain;
      }
      return true;
    }
    switch (e) {
    case 'u': {
      int cp = hex4();
      if (cp < 0) {
        return false;
      }
      if (cp >= 0xDC00 && cp <= 0xDFFF) {
        return false;
      }
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (m_text.size() - m_pos < 2 || m_text[m_pos] != '\\' || m_text[m_pos + 1] != 'u') {
          return false;
        }
        m_pos += 2;
        int low = hex4();
        if (low < 0xDC00 || low > 0xDFFF) {
          return false;
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      if (out != nullptr) {
        util::append_utf8(*out, static_cast<char32_t>(cp));
      }
      return true;
    }
    default:
      return false;
    }
  }

  bool literal(std::string_view word) {
    if (m_text.substr(m_pos, word.size()) != word) {
      return false;
    }
    m_pos += word.size();
    return true;
  }

  bool digits() {
    std::size_t start = m_pos;
    while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
      ++m_pos;
    }
    return m_pos > start;
  }

  // true, false, null or a number.
  bool read_scalar() {
    char c = m_text[m_pos];
    if (c == 't') {
      return literal("true");
    }
    if (c == 'f') {
      return literal("false");
    }
    if (c == 'n') {
      return literal("null");
    }
    if (c == '-') {
      ++m_pos;
    }
    if (m_pos >= m_text.size()) {
      return false;
    }
    if (m_text[m_pos] == '0') {
      ++m_pos;
    } else if (!digits()) {
      return false;
    }
    if (m_pos < m_text.size() && m_text[m_pos] == '.') {
      ++m_pos;
      if (!digits()) {
        return false;
      }
    }
    if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
      ++m_pos;
      if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-')) {
        ++m_pos;
      }
      if (!digits()) {
        return false;
      }
    }
    return true;
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

} // namespace

std::optional<std::string> object_kind(std::string_view text) { return Scanner(text).run(); }

} // namespace opm::json
