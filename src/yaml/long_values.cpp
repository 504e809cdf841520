#include "yaml/long_values.hpp"

#include "util/strings.hpp"
#include "util/swar.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace opm::yaml {

namespace {

// Whether every character is in the base64 alphabet. These runs are long, so 16 bytes are
// classified at a time with the compiler's portable vector extension.
bool all_run_chars(std::string_view s) {
  using Bytes = unsigned char __attribute__((vector_size(16)));
  constexpr std::size_t k_width = sizeof(Bytes);
  const auto* data = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t i = 0;
  for (; i + k_width <= s.size(); i += k_width) {
    Bytes c;
    std::memcpy(&c, data + i, k_width);
    Bytes lower = c | 0x20;
    auto ok = ((lower - 'a') < 26) | ((c - '0') < 10) | (c == '+') | (c == '/') | (c == '=');
    std::uint64_t halves[2];
    std::memcpy(halves, &ok, sizeof halves);
    if ((halves[0] & halves[1]) != ~std::uint64_t{0}) {
      return false;
    }
  }
  for (; i < s.size(); ++i) {
    unsigned char c = data[i];
    bool ok = static_cast<unsigned char>((c | 0x20U) - 'a') < 26 ||
              static_cast<unsigned char>(c - '0') < 10 || c == '+' || c == '/' || c == '=';
    if (!ok) {
      return false;
    }
  }
  return true;
}

bool is_simple_key_char(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

// Where the key and the value of a "key: value" line start, if the line has that shape.
struct KeyValue {
  std::size_t key = 0;
  std::size_t value = 0;
};

std::optional<KeyValue> key_value(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && line[i] == ' ') {
    ++i;
  }
  while (i + 1 < line.size() && line[i] == '-' && line[i + 1] == ' ') {
    i += 2;
    while (i < line.size() && line[i] == ' ') {
      ++i;
    }
  }
  std::size_t key = i;
  while (i < line.size() && is_simple_key_char(static_cast<unsigned char>(line[i]))) {
    ++i;
  }
  if (i == key || i + 1 >= line.size() || line[i] != ':' || line[i + 1] != ' ') {
    return std::nullopt;
  }
  i += 2;
  while (i < line.size() && line[i] == ' ') {
    ++i;
  }
  return KeyValue{key, i};
}

enum class Chomping { clip, strip, keep };

std::optional<Chomping> literal_header(std::string_view value) {
  if (value == "|") {
    return Chomping::clip;
  }
  if (value == "|-") {
    return Chomping::strip;
  }
  if (value == "|+") {
    return Chomping::keep;
  }
  return std::nullopt;
}

// Whether libyaml reads `s` as the text of one line: characters its reader accepts, no line
// break of any kind (\r, NEL, LS, PS), no control character but tab.
bool one_line_text(std::string_view s) {
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
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        return false;
      }
      ++i;
      continue;
    }
    bool valid = true;
    char32_t cp = util::decode_utf8(s, i, &valid);
    if (!valid || cp < 0xA0 || cp == 0x2028 || cp == 0x2029 || (cp >= 0xD800 && cp <= 0xDFFF) ||
        cp == 0xFFFE || cp == 0xFFFF || cp > 0x10FFFF) {
      return false;
    }
  }
  return true;
}

// A literal block scalar whose header ends the line before `from`, in a mapping whose keys
// sit at `key_column`: where its last line ends (before that line's break) and its value, as
// libyaml's scanner takes them. nullopt where the layout is not plain enough to be sure.
struct LiteralBlock {
  std::size_t end = 0;
  std::string value;
};

std::optional<LiteralBlock> literal_block(std::string_view body, std::size_t from,
                                          std::size_t key_column, Chomping chomping) {
  LiteralBlock block;
  std::size_t indent = 0;
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
    if (block.end == 0) {
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
  if (chomping == Chomping::clip) {
    block.value += '\n';
  } else if (chomping == Chomping::keep) {
    if (!ended_by_text) {
      return std::nullopt; // a newline the caller appends would count too
    }
    block.value.append(1 + empty_lines, '\n');
  }
  return block;
}

} // namespace

std::optional<LongValues::Original> LongValues::original(std::string_view scalar) const {
  if (!scalar.starts_with(prefix)) {
    return std::nullopt;
  }
  std::size_t index = 0;
  std::string_view digits = scalar.substr(prefix.size());
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size() || index >= originals.size() ||
      digits != std::to_string(index)) {
    return std::nullopt;
  }
  return originals[index];
}

std::optional<LongValues> find_long_values(std::string_view body, bool long_lines) {
  static constexpr std::string_view k_prefix = "oPmLoNgVaLuE";
  if (body.size() < k_long_value || body.find(k_prefix) != std::string_view::npos) {
    return std::nullopt;
  }
  LongValues found;
  found.prefix = k_prefix;
  std::size_t copied = 0;
  auto swap_out = [&](std::size_t begin, std::size_t end, LongValues::Original original) {
    if (found.text.empty()) {
      found.text.reserve(body.size() / 2);
    }
    found.text.append(body.substr(copied, begin - copied));
    found.text += k_prefix;
    found.text += std::to_string(found.originals.size());
    found.originals.push_back(original);
    copied = end;
  };
  std::size_t pos = 0;
  while (pos < body.size()) {
    const void* nl = std::memchr(body.data() + pos, '\n', body.size() - pos);
    if (nl == nullptr) {
      break;
    }
    auto end = static_cast<std::size_t>(static_cast<const char*>(nl) - body.data());
    std::string_view line = body.substr(pos, end - pos);
    if (long_lines && line.size() >= k_long_value) {
      auto kv = key_value(line);
      if (kv && line.size() - kv->value >= k_long_value && all_run_chars(line.substr(kv->value))) {
        swap_out(pos + kv->value, end, {line.substr(kv->value), true});
      }
    } else if (line.ends_with('|') || line.ends_with("|-") || line.ends_with("|+")) {
      auto kv = key_value(line);
      auto chomping = kv ? literal_header(line.substr(kv->value)) : std::nullopt;
      auto block = chomping ? literal_block(body, end + 1, kv->key, *chomping) : std::nullopt;
      if (block) {
        const std::string& value = found.block_values.emplace_back(std::move(block->value));
        swap_out(pos + kv->value, block->end, {value, false});
        end = block->end;
      }
    }
    pos = end + 1;
  }
  if (found.originals.empty()) {
    return std::nullopt;
  }
  found.text.append(body.substr(copied));
  return found;
}

} // namespace opm::yaml
