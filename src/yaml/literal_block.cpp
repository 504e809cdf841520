#include "yaml/detail/literal_block.hpp"

#include "util/strings.hpp"
#include "util/swar.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace opm::yaml::detail {

std::optional<LiteralHeader> literal_header(std::string_view value) {
  if (value.empty() || value[0] != '|') {
    return std::nullopt;
  }
  LiteralHeader header;
  bool chomping_seen = false;
  for (char c : value.substr(1)) {
    if ((c == '-' || c == '+') && !chomping_seen) {
      header.chomping = c == '-' ? Chomping::strip : Chomping::keep;
      chomping_seen = true;
    } else if (c >= '1' && c <= '9' && header.increment == 0) {
      header.increment = static_cast<std::size_t>(c - '0');
    } else {
      return std::nullopt;
    }
  }
  return header;
}

bool one_line_text(std::string_view s, bool tabs) {
  namespace swar = util::swar;
  const auto* bytes = reinterpret_cast<const unsigned char*>(s.data());
  for (std::size_t i = 0; i < s.size();) {
    if (i + 8 <= s.size()) {
      std::uint64_t word = swar::load(bytes + i);
      if ((swar::has_high(word) | swar::has_less(word, 0x20) | swar::has_byte(word, 0x7F)) == 0) {
        i += 8;
        continue;
      }
    }
    auto c = bytes[i];
    if (c < 0x80) {
      if ((c < 0x20 && (c != '\t' || !tabs)) || c == 0x7F) {
        return false;
      }
      ++i;
      continue;
    }
    bool valid = true;
    char32_t cp = util::decode_utf8(s, i, &valid);
    if (!valid || cp < 0xA0 || cp == 0x2028 || cp == 0x2029 || (cp >= 0xD800 && cp <= 0xDFFF) ||
        cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF || cp > 0x10FFFF) {
      return false;
    }
  }
  return true;
}

std::optional<LiteralBlock> literal_block(std::string_view body, std::size_t from,
                                          std::size_t key_column, LiteralHeader header) {
  LiteralBlock block;
  std::size_t indent = header.increment == 0 ? 0 : key_column + header.increment;
  std::size_t empty_lines = 0; // since the last line of text
  bool ended_by_text = false;  // by a line indented less, rather than by the end of the body
  for (std::size_t pos = from; pos < body.size();) {
    const void* nl = std::memchr(body.data() + pos, '\n', body.size() - pos);
    std::size_t end = nl == nullptr
                          ? body.size()
                          : static_cast<std::size_t>(static_cast<const char*>(nl) - body.data());
    std::string_view line = body.substr(pos, end - pos);
    std::size_t spaces = std::min(line.find_first_not_of(' '), line.size());
    bool blank = spaces == line.size();
    if (block.end == 0 && header.increment == 0) {
      // libyaml takes the indentation from the first line; leading empty lines, tabs and
      // lines no deeper than the keys are left to it.
      if (blank || spaces <= key_column || line[spaces] == '\t') {
        return std::nullopt;
      }
      indent = spaces;
    }
    if (blank && spaces <= indent) {
      ++empty_lines;
    } else if (spaces < indent) {
      // Text indented less ends the block. A tab there fails in libyaml, and a \r or a
      // Unicode line break makes the line an empty one to it.
      auto c = static_cast<unsigned char>(line[spaces]);
      if (c <= ' ' || c >= 0x7F) {
        return std::nullopt;
      }
      ended_by_text = true;
      break;
    } else {
      std::string_view text = line.substr(indent);
      if (nl == nullptr || !one_line_text(text)) {
        return std::nullopt;
      }
      if (block.end != 0) {
        block.value.append(1 + empty_lines, '\n');
      } else {
        block.value.append(empty_lines, '\n'); // only an explicit indentation allows these
      }
      block.value += text;
      block.end = end;
      empty_lines = 0;
    }
    pos = end + 1;
  }
  if (block.end == 0) {
    return std::nullopt;
  }
  if (header.chomping == Chomping::clip) {
    block.value += '\n';
  } else if (header.chomping == Chomping::keep) {
    if (!ended_by_text) {
      return std::nullopt; // a newline the caller appends would count too
    }
    block.value.append(1 + empty_lines, '\n');
  }
  return block;
}

} // namespace opm::yaml::detail
