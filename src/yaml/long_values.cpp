#include "yaml/long_values.hpp"

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

// Where the value of a "key: value" line starts, if the line has that shape.
std::size_t value_start(std::string_view line) {
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
    return std::string_view::npos;
  }
  i += 2;
  while (i < line.size() && line[i] == ' ') {
    ++i;
  }
  return i;
}

} // namespace

std::optional<std::string_view> LongValues::original(std::string_view scalar) const {
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

std::optional<LongValues> find_long_values(std::string_view body) {
  static constexpr std::string_view k_prefix = "oPmLoNgVaLuE";
  if (body.size() < k_long_value || body.find(k_prefix) != std::string_view::npos) {
    return std::nullopt;
  }
  LongValues found;
  found.prefix = k_prefix;
  std::size_t copied = 0;
  std::size_t pos = 0;
  while (pos < body.size()) {
    const void* nl = std::memchr(body.data() + pos, '\n', body.size() - pos);
    if (nl == nullptr) {
      break;
    }
    auto end = static_cast<std::size_t>(static_cast<const char*>(nl) - body.data());
    std::string_view line = body.substr(pos, end - pos);
    if (line.size() >= k_long_value) {
      std::size_t start = value_start(line);
      if (start != std::string_view::npos && line.size() - start >= k_long_value &&
          all_run_chars(line.substr(start))) {
        if (found.text.empty()) {
          found.text.reserve(body.size() / 8);
        }
        found.text.append(body.substr(copied, pos + start - copied));
        found.text += k_prefix;
        found.text += std::to_string(found.originals.size());
        found.originals.push_back(line.substr(start));
        copied = end;
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
