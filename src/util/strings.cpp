#include "util/strings.hpp"

#include "util/utf8.hpp"

#include <fmt/format.h>

namespace opm::util {

char32_t decode_utf8(std::string_view s, std::size_t& i, bool* valid) {
  const utf8::Rune r = utf8::decode(s, i);
  if (valid != nullptr) {
    *valid = r.valid;
  }
  i += r.length;
  return r.code;
}

void append_utf8(std::string& out, char32_t cp) { utf8::append(out, cp); }

std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size();) {
    decode_utf8(s, i);
    ++n;
  }
  return n;
}

namespace {
// Close to Go's unicode.IsPrint for the characters that show up in catalogs:
// controls, format characters, separators other than space, and non-characters are not printable.
bool go_is_print(char32_t cp) {
  if (cp < 0x20 || cp == 0x7F) {
    return false;
  }
  if (cp < 0x7F) {
    return true;
  }
  if (cp < 0xA0 || cp == 0xAD) {
    return false;
  }
  if ((cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
      (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB) ||
      cp == 0xFFFE || cp == 0xFFFF || (cp >= 0xE000 && cp <= 0xF8FF) || cp >= 0xF0000 ||
      cp == 0x3000 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x205F) {
    return false;
  }
  return true;
}
} // namespace

std::string go_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    std::size_t start = i;
    bool valid = true;
    char32_t cp = decode_utf8(s, i, &valid);
    if (!valid) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[start]));
      continue;
    }
    switch (cp) {
    case '"':
      out += "\\\"";
      continue;
    case '\\':
      out += "\\\\";
      continue;
    case '\a':
      out += "\\a";
      continue;
    case '\b':
      out += "\\b";
      continue;
    case '\f':
      out += "\\f";
      continue;
    case '\n':
      out += "\\n";
      continue;
    case '\r':
      out += "\\r";
      continue;
    case '\t':
      out += "\\t";
      continue;
    case '\v':
      out += "\\v";
      continue;
    default:
      break;
    }
    if (go_is_print(cp)) {
      out.append(s.substr(start, i - start));
    } else if (cp < 0x80) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(cp));
    } else if (cp < 0x10000) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(cp));
    } else {
      out += fmt::format("\\U{:08x}", static_cast<unsigned>(cp));
    }
  }
  out += '"';
  return out;
}

std::vector<std::string_view> split_view(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    auto pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      parts.emplace_back(s.substr(start));
      return parts;
    }
    parts.emplace_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += sep;
    }
    out += parts[i];
  }
  return out;
}

bool go_is_space(char32_t c) {
  switch (c) {
  case '\t':
  case '\n':
  case '\v':
  case '\f':
  case '\r':
  case ' ':
  case 0x85:
  case 0xA0:
  case 0x1680:
  case 0x2028:
  case 0x2029:
  case 0x202F:
  case 0x205F:
  case 0x3000:
    return true;
  default:
    return c >= 0x2000 && c <= 0x200A;
  }
}

bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

bool equal_fold_same_size(std::string_view a, std::string_view b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') {
      x = static_cast<char>(x - 'A' + 'a');
    }
    if (y >= 'A' && y <= 'Z') {
      y = static_cast<char>(y - 'A' + 'a');
    }
    if (x != y) {
      return false;
    }
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(static_cast<unsigned char>(s.front()))) {
    s.remove_prefix(1);
  }
  while (!s.empty() && is_space(static_cast<unsigned char>(s.back()))) {
    s.remove_suffix(1);
  }
  return s;
}

std::optional<char> simple_escape(char letter, Escapes grammar) {
  switch (letter) {
  case 'b':
    return '\b';
  case 'f':
    return '\f';
  case 'n':
    return '\n';
  case 'r':
    return '\r';
  case 't':
    return '\t';
  case '\\':
  case '"':
    return letter;
  case 'a':
    return grammar == Escapes::go ? std::optional<char>('\a') : std::nullopt;
  case 'v':
    return grammar == Escapes::go ? std::optional<char>('\v') : std::nullopt;
  case '/':
    return grammar == Escapes::json ? std::optional<char>('/') : std::nullopt;
  default:
    return std::nullopt;
  }
}

int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

std::optional<std::string> go_unquote(std::string_view quoted) {
  if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') {
    return std::nullopt;
  }
  std::string out;
  const std::string_view s = quoted.substr(1, quoted.size() - 2);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i >= s.size()) {
      return std::nullopt;
    }
    if (auto plain = simple_escape(s[i], Escapes::go)) {
      out += *plain;
      continue;
    }
    const std::size_t digits = s[i] == 'x' ? 2 : s[i] == 'u' ? 4 : s[i] == 'U' ? 8 : 0;
    if (digits == 0 || i + digits >= s.size()) {
      return std::nullopt;
    }
    char32_t value = 0;
    for (std::size_t k = 1; k <= digits; ++k) {
      const int d = hex_digit_value(s[i + k]);
      if (d < 0) {
        return std::nullopt;
      }
      value = value * 16 + static_cast<char32_t>(d);
    }
    i += digits;
    if (digits == 2) {
      out += static_cast<char>(value);
    } else {
      append_utf8(out, value);
    }
  }
  return out;
}

} // namespace opm::util
