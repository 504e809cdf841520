#include "yaml/long_values.hpp"

#include "util/swar.hpp"
#include "yaml/detail/literal_block.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace opm::yaml {

namespace {

using detail::literal_block;
using detail::literal_header;

// Whether every character is in the base64 alphabet. These runs are long, so 16 bytes are
// classified at a time with the compiler's portable vector extension.
bool all_run_chars(std::string_view s) {
  const auto* data = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t i = util::swar::skip_unmarked_blocks(data, 0, s.size(), [](util::swar::Bytes16 c) {
    util::swar::Bytes16 lower = c | 0x20;
    return ~(((lower - 'a') < 26) | ((c - '0') < 10) | (c == '+') | (c == '/') | (c == '='));
  });
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
      auto header = kv ? literal_header(line.substr(kv->value)) : std::nullopt;
      auto block = header && header->increment == 0 ? literal_block(body, end + 1, kv->key, *header)
                                                    : std::nullopt;
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
