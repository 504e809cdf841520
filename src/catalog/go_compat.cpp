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

} // namespace opm::catalog::go_compat
