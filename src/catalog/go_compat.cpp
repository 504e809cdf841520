#include "catalog/go_compat.hpp"

#include "catalog/json_text.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace opm::catalog::go_compat {

const Json* member(const Json& obj, std::string_view name) {
  if (!obj.is_object()) {
    return nullptr;
  }
  const Json* found = nullptr;
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (util::equal_fold(it.key(), name)) {
      found = &it.value();
    }
  }
  return found;
}

std::string_view find_raw(std::string_view text, std::initializer_list<std::string_view> path) {
  std::string_view current = text;
  for (std::string_view name : path) {
    auto members = json_text::object_members(current);
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

std::string indent(std::string_view compact) {
  std::string out;
  out.reserve(compact.size() * 2);
  int depth = 0;
  bool need_indent = false;
  bool in_string = false;
  auto newline = [&] {
    out += '\n';
    for (int i = 0; i < depth; ++i) {
      out += "    ";
    }
  };
  for (std::size_t i = 0; i < compact.size(); ++i) {
    char c = compact[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < compact.size()) {
        out += compact[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (need_indent && c != ']' && c != '}') {
      need_indent = false;
      ++depth;
      newline();
    }
    switch (c) {
    case '"':
      in_string = true;
      out += c;
      break;
    case '{':
    case '[':
      need_indent = true;
      out += c;
      break;
    case ',':
      out += c;
      newline();
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
        newline();
      }
      out += c;
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string pretty_error(std::string_view data, std::size_t offset, std::string_view message) {
  constexpr std::string_view marker = " <==";
  if (data.empty() || offset > data.size()) {
    return std::string(message);
  }
  std::string out = fmt::format("{} at offset {} (indicated by{})\n", message, offset, marker);
  std::string pretty = indent(data);
  if (offset == data.size()) {
    out += pretty;
    out += marker;
    return out;
  }
  std::size_t p = 0;
  std::size_t pretty_offset = 0;
  for (std::size_t d = 0; d < data.size(); ++d) {
    if (d == offset) {
      pretty_offset = p;
      break;
    }
    while (pretty[p] != data[d]) {
      if (++p >= pretty.size()) {
        return std::string(message);
      }
    }
    ++p;
  }
  out.append(pretty, 0, pretty_offset);
  out += marker;
  out += ' ';
  out.append(pretty, pretty_offset);
  return out;
}

std::string format_float32_g(double f) {
  auto g = static_cast<float>(f);
  if (std::isnan(g)) {
    return "NaN";
  }
  if (std::isinf(g)) {
    return g > 0 ? "+Inf" : "-Inf";
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, g, std::chars_format::scientific);
  std::string_view s(buf, static_cast<std::size_t>(res.ptr - buf));
  std::string out;
  if (s.front() == '-') {
    out += '-';
    s.remove_prefix(1);
  }
  auto e = s.find('e');
  std::string digits;
  for (char c : s.substr(0, e)) {
    if (c != '.') {
      digits += c;
    }
  }
  int exp = 0;
  std::from_chars(s.data() + e + 1 + (s[e + 1] == '+' ? 1 : 0), s.data() + s.size(), exp);
  if (digits == "0") {
    exp = 0;
  }
  if (exp < -4 || exp >= 6) {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += exp < 0 ? "e-" : "e+";
    std::string ex = std::to_string(std::abs(exp));
    if (ex.size() < 2) {
      ex.insert(ex.begin(), '0');
    }
    out += ex;
    return out;
  }
  int point = exp + 1;
  int n = static_cast<int>(digits.size());
  if (point <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out += digits;
  } else if (point >= n) {
    out += digits;
    out.append(static_cast<std::size_t>(point - n), '0');
  } else {
    out.append(digits, 0, static_cast<std::size_t>(point));
    out += '.';
    out.append(digits, static_cast<std::size_t>(point));
  }
  return out;
}

} // namespace opm::catalog::go_compat
