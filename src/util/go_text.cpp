#include "util/avx2.hpp"
#include "util/go_format.hpp"
#include "util/strings.hpp"
#include "util/swar.hpp"
#include "util/utf8.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <vector>

namespace opm::util {

using Json = nlohmann::json;

namespace {

// 0: written as is; 1: needs an escape (or is an HTML character, see below).
constexpr std::array<std::uint8_t, 128> make_ascii_table(bool escape_html) {
  std::array<std::uint8_t, 128> t{};
  for (int c = 0; c < 0x20; ++c) {
    t[c] = 1;
  }
  t['"'] = 1;
  t['\\'] = 1;
  if (escape_html) {
    t['<'] = 1;
    t['>'] = 1;
    t['&'] = 1;
  }
  return t;
}

constexpr auto k_plain_table = make_ascii_table(false);
constexpr auto k_html_table = make_ascii_table(true);

void append_go_syntax_scalar(std::string& out, const Json& v, bool in_container) {
  switch (v.type()) {
  case Json::value_t::null:
    out += in_container ? "interface {}(nil)" : "<nil>";
    break;
  case Json::value_t::boolean:
    out += v.get<bool>() ? "true" : "false";
    break;
  case Json::value_t::number_integer:
    out += std::to_string(v.get<std::int64_t>());
    break;
  case Json::value_t::number_unsigned: {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v.get<std::uint64_t>(), 16);
    out += "0x";
    out.append(buf, r.ptr);
    break;
  }
  case Json::value_t::number_float:
    out += format_float(v.get<double>(), 'g', 64);
    break;
  case Json::value_t::string:
    out += go_quote(v.get_ref<const std::string&>());
    break;
  default:
    break;
  }
}

} // namespace

std::string quote_char(unsigned char c) {
  if (c == '\'') {
    return R"('\'')";
  }
  if (c == '"') {
    return R"('"')";
  }
  // Go converts the byte to the rune U+00XX, then quotes it.
  std::string rune;
  append_utf8(rune, c);
  std::string quoted = go_quote(rune);
  return "'" + quoted.substr(1, quoted.size() - 2) + "'";
}

std::string go_syntax(const Json& root) {
  // Iterative, so that deeply nested keys cannot exhaust the stack.
  struct Level {
    const Json* value;
    Json::const_iterator next;
    bool first = true;
  };
  std::string out;
  std::vector<Level> stack;
  auto open = [&](const Json& v, bool in_container) {
    if (v.is_object()) {
      out += "map[interface {}]interface {}{";
      stack.push_back({&v, v.begin()});
    } else if (v.is_array()) {
      out += "[]interface {}{";
      stack.push_back({&v, v.begin()});
    } else {
      append_go_syntax_scalar(out, v, in_container);
    }
  };
  open(root, false);
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.value->end()) {
      out += '}';
      stack.pop_back();
      continue;
    }
    if (!level.first) {
      out += ", ";
    }
    level.first = false;
    auto it = level.next++;
    if (level.value->is_object()) {
      out += go_quote(it.key());
      out += ':';
    }
    open(*it, true);
  }
  return out;
}

namespace {

// The first offset from `i` whose byte a JSON string must escape or look at twice: '"', '\\',
// a control character, a byte of a multi-byte UTF-8 sequence and, with `html`, '<', '>' and
// '&'. Sixteen bytes are classified at a time.
template <bool html>
std::size_t skip_unescaped(const unsigned char* p, std::size_t i, std::size_t n) {
  i = skip_plain_blocks(p, i, n, html ? PlainStops::json_string_html : PlainStops::json_string);
  i = swar::skip_unmarked_blocks(p, i, n, [](swar::Bytes16 c) {
    auto special = ((c - 0x20) >= 0x60) | (c == '"') | (c == '\\');
    if constexpr (html) {
      special |= (c == '<') | (c == '>') | (c == '&');
    }
    return special;
  });
  // The last few bytes (most of a short string): eight at a time, then one at a time.
  for (; i + 8 <= n; i += 8) {
    const std::uint64_t word = swar::load(p + i);
    std::uint64_t marks = swar::has_json_string_special(word);
    if constexpr (html) {
      marks |= swar::has_byte(word, '<') | swar::has_byte(word, '>') | swar::has_byte(word, '&');
    }
    if (marks != 0) {
      return i + swar::first_marked(marks);
    }
  }
  const auto& table = html ? k_html_table : k_plain_table;
  while (i < n && p[i] < 0x80 && table[p[i]] == 0) {
    ++i;
  }
  return i;
}

// Whether none of the `len` (fewer than 32) bytes at `p` needs an escape or a second look in a
// JSON string. Words overlap rather than read past the string.
template <bool html> bool short_run_is_plain(const unsigned char* p, std::size_t len) {
  auto marks = [](std::uint64_t word) {
    std::uint64_t m = swar::has_json_string_special(word);
    if constexpr (html) {
      m |= swar::has_byte(word, '<') | swar::has_byte(word, '>') | swar::has_byte(word, '&');
    }
    return m;
  };
  if (len >= 16) {
    auto lanes = [](swar::Bytes16 c) {
      auto special = ((c - 0x20) >= 0x60) | (c == '"') | (c == '\\');
      if constexpr (html) {
        special |= (c == '<') | (c == '>') | (c == '&');
      }
      return special;
    };
    const auto marked = lanes(swar::load16(p)) | lanes(swar::load16(p + len - 16));
    std::uint64_t halves[2];
    std::memcpy(halves, &marked, sizeof halves);
    return (halves[0] | halves[1]) == 0;
  }
  if (len >= 8) {
    return (marks(swar::load(p)) | marks(swar::load(p + len - 8))) == 0;
  }
  if (len >= 4) {
    std::uint32_t first = 0;
    std::uint32_t last = 0;
    std::memcpy(&first, p, 4);
    std::memcpy(&last, p + len - 4, 4);
    return marks(first | (std::uint64_t{last} << 32)) == 0;
  }
  const auto& table = html ? k_html_table : k_plain_table;
  for (std::size_t i = 0; i < len; ++i) {
    if (p[i] >= 0x80 || table[p[i]] != 0) {
      return false;
    }
  }
  return true;
}

// Copies `len` (fewer than 32) bytes with two overlapping moves of a fixed size.
void copy_short_run(char* out, const unsigned char* p, std::size_t len) {
  auto move = [&]<std::size_t width>() {
    char head[width];
    char tail[width];
    std::memcpy(head, p, width);
    std::memcpy(tail, p + len - width, width);
    std::memcpy(out, head, width);
    std::memcpy(out + len - width, tail, width);
  };
  if (len >= 16) {
    move.template operator()<16>();
  } else if (len >= 8) {
    move.template operator()<8>();
  } else if (len >= 4) {
    move.template operator()<4>();
  } else {
    for (std::size_t i = 0; i < len; ++i) {
      out[i] = static_cast<char>(p[i]);
    }
  }
}

// A long string is escaped a piece at a time, so that the room asked for each piece (six times
// its size) stays small beside what the output holds.
constexpr std::size_t k_piece = 16 * 1024;

// The bytes of `p` from `i` on written escaped at `out`, until at least `stop` (a character
// that starts before `stop` is written whole); `out` has json_string_room(stop - i) bytes of
// room (less the two quotes). Returns where reading and writing ended.
template <bool html>
PlainCopy write_escaped(char* out, const unsigned char* p, std::size_t i, std::size_t stop,
                        std::size_t n) {
  auto plain = [](unsigned char c) {
    return c < 0x80 && (html ? k_html_table : k_plain_table)[c] == 0;
  };
  while (true) {
    if (stop - i >= 32) {
      const PlainCopy copied = copy_json_string_blocks(p, i, stop, out, html);
      out = copied.out;
      i = copied.pos;
      // Where AVX2 does not run, the portable skip goes over a long run.
      if (stop - i >= 32 && plain(p[i])) {
        const std::size_t run = i;
        i = skip_unescaped<html>(p, run, stop);
        std::memcpy(out, p + run, i - run);
        out += i - run;
      }
    }
    // The last bytes (most of a short string): at once where none needs an escape, else one
    // at a time up to the first that does.
    if (stop - i < 32 && short_run_is_plain<html>(p + i, stop - i)) {
      copy_short_run(out, p + i, stop - i);
      return {stop, out + (stop - i)};
    }
    while (i < stop && plain(p[i])) {
      *out++ = static_cast<char>(p[i++]);
    }
    if (i >= stop) {
      return {i, out};
    }
    const unsigned char c = p[i];
    if (c < 0x80) {
      out = write_json_escape(out, c);
      ++i;
      continue;
    }
    const utf8::Rune r = utf8::decode(p + i, n - i);
    if (r.valid && r.code != 0x2028 && r.code != 0x2029) {
      std::memcpy(out, p + i, r.length);
      out += r.length;
    } else {
      std::memcpy(out, r.valid ? (r.code == 0x2028 ? "\\u2028" : "\\u2029") : "\\ufffd", 6);
      out += 6;
    }
    i += r.length;
  }
}

} // namespace

void append_json_string(std::string& out, std::string_view s, bool escape_html) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  if (n <= k_piece) {
    const std::size_t before = out.size();
    out.resize_and_overwrite(before + json_string_room(n), [&](char* buf, std::size_t) {
      return static_cast<std::size_t>(write_json_string(buf + before, s, escape_html) - buf);
    });
    return;
  }
  out.push_back('"');
  for (std::size_t i = 0; i < n;) {
    const std::size_t stop = std::min(n, i + k_piece);
    const std::size_t before = out.size();
    out.resize_and_overwrite(before + json_string_room(stop - i), [&](char* buf, std::size_t) {
      const PlainCopy written = escape_html ? write_escaped<true>(buf + before, p, i, stop, n)
                                            : write_escaped<false>(buf + before, p, i, stop, n);
      i = written.pos;
      return static_cast<std::size_t>(written.out - buf);
    });
  }
  out.push_back('"');
}

char* write_json_string(char* out, std::string_view s, bool escape_html) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  *out++ = '"';
  out = escape_html ? write_escaped<true>(out, p, 0, n, n).out
                    : write_escaped<false>(out, p, 0, n, n).out;
  *out++ = '"';
  return out;
}

} // namespace opm::util
