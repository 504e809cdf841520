#include "yaml/detail/literal_block.hpp"

#include "util/avx2.hpp"
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

namespace {

// The offset of the first byte at or after `i` that is below 0x20 or above 0x7E, or `s.size()`.
// Sixteen bytes are classified at a time; past the length of most lines, 32 where AVX2 runs.
std::size_t skip_printable_ascii(std::string_view s, std::size_t i) {
  constexpr std::size_t k_short_line = 64;
  const auto* data = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  auto unprintable = [](util::swar::Bytes16 c) { return (c - 0x20) >= 0x5F; };
  i = util::swar::skip_unmarked_blocks(data, i, std::min(n, i + k_short_line), unprintable);
  if (i + sizeof(util::swar::Bytes16) <= n && static_cast<unsigned char>(s[i] - 0x20) < 0x5F) {
    // A long line: the first 64 bytes were all printable.
    i = util::skip_plain_blocks(data, i, n, util::PlainStops::printable);
    i = util::swar::skip_unmarked_blocks(data, i, n, unprintable);
  }
  while (i < n && static_cast<unsigned char>(s[i] - 0x20) < 0x5F) {
    ++i;
  }
  return i;
}

} // namespace

std::optional<std::size_t> text_line_end(std::string_view s, std::size_t pos, bool tabs) {
  for (std::size_t i = skip_printable_ascii(s, pos); i < s.size(); i = skip_printable_ascii(s, i)) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      return i;
    }
    if (c < 0x80) {
      if ((c < 0x20 && (c != '\t' || !tabs)) || c == 0x7F) {
        return std::nullopt;
      }
      ++i;
      continue;
    }
    bool valid = true;
    char32_t cp = util::decode_utf8(s, i, &valid);
    if (!valid || cp < 0xA0 || cp == 0x2028 || cp == 0x2029 || (cp >= 0xD800 && cp <= 0xDFFF) ||
        cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF || cp > 0x10FFFF) {
      return std::nullopt;
    }
  }
  return s.size();
}

bool one_line_text(std::string_view s, bool tabs) { return text_line_end(s, 0, tabs) == s.size(); }

std::optional<LiteralBlock> literal_block(std::string_view body, std::size_t from,
                                          std::size_t key_column, LiteralHeader header) {
  LiteralBlock block;
  std::size_t indent = header.increment == 0 ? 0 : key_column + header.increment;
  std::size_t empty_lines = 0; // since the last line of text
  bool ended_by_text = false;  // by a line indented less, rather than by the end of the body
  for (std::size_t pos = from; pos < body.size();) {
    auto found = text_line_end(body, pos, true);
    if (!found) {
      return std::nullopt;
    }
    std::size_t end = *found;
    bool terminated = end < body.size();
    std::string_view line = body.substr(pos, end - pos);
    std::size_t spaces = util::swar::leading_spaces(line);
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
      if (!terminated) {
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
