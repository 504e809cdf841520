#include "yaml/emitter.hpp"

#include "util/swar.hpp"
#include "util/utf8.hpp"
#include "yaml/plain.hpp"

#include <array>
#include <cstdint>

namespace opm::yaml {

namespace {

constexpr std::size_t k_best_width = 80;
constexpr int k_best_indent = 2;
constexpr std::size_t k_max_simple_key_length = 128;

using Bytes = const unsigned char*;

Bytes bytes_of(std::string_view s) { return reinterpret_cast<Bytes>(s.data()); }

// Characters that need no attention in the analysis when not first, other than being a
// space: printable ASCII except ':' and '#'.
constexpr std::array<bool, 256> make_ordinary_or_space_table() {
  std::array<bool, 256> t{};
  for (int c = 0x20; c <= 0x7E; ++c) {
    t[c] = c != ':' && c != '#';
  }
  return t;
}
constexpr auto k_ordinary_or_space = make_ordinary_or_space_table();

// Byte length of the character whose first byte is `c` (the text is valid UTF-8).
std::size_t width(unsigned char c) {
  if (c < 0x80) {
    return 1;
  }
  if ((c & 0xE0) == 0xC0) {
    return 2;
  }
  if ((c & 0xF0) == 0xE0) {
    return 3;
  }
  return 4;
}

// The helpers below look at the character starting at p[i], with n bytes in all. The text
// is valid UTF-8, so a lead byte is always followed by its continuation bytes.
[[gnu::always_inline]] inline bool is_break(Bytes p, std::size_t i) {
  const unsigned char c = p[i];
  if (c < 0x80) {
    return c == '\r' || c == '\n';
  }
  return (c == 0xC2 && p[i + 1] == 0x85) ||
         (c == 0xE2 && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9));
}

[[gnu::always_inline]] inline bool is_printable(Bytes p, std::size_t i) {
  const unsigned char c = p[i];
  if (c < 0x80) {
    return c == 0x0A || (c >= 0x20 && c <= 0x7E);
  }
  return (c == 0xC2 && p[i + 1] >= 0xA0) || (c > 0xC2 && c < 0xED) ||
         (c == 0xED && p[i + 1] < 0xA0) || c == 0xEE ||
         (c == 0xEF && !(p[i + 1] == 0xBB && p[i + 2] == 0xBF) &&
          !(p[i + 1] == 0xBF && (p[i + 2] == 0xBE || p[i + 2] == 0xBF)));
}

bool is_blank_or_break_or_nul(Bytes p, std::size_t i) {
  const unsigned char c = p[i];
  return c == ' ' || c == '\t' || c == 0 || is_break(p, i);
}

bool is_first_char_indicator(unsigned char c) {
  switch (c) {
  case '#':
  case ',':
  case '[':
  case ']':
  case '{':
  case '}':
  case '&':
  case '*':
  case '!':
  case '|':
  case '>':
  case '\'':
  case '"':
  case '%':
  case '@':
  case '`':
    return true;
  default:
    return false;
  }
}

char32_t decode_valid(Bytes p, std::size_t i, std::size_t w) {
  const unsigned char c = p[i];
  if (w == 1) {
    return c;
  }
  char32_t v = c & (w == 2 ? 0x1Fu : w == 3 ? 0x0Fu : 0x07u);
  for (std::size_t k = 1; k < w; ++k) {
    v = (v << 6) | (p[i + k] & 0x3Fu);
  }
  return v;
}

constexpr char k_hex_upper[] = "0123456789ABCDEF";

// The escape go-yaml writes after the backslash for code point v.
void append_escape(std::string& out, char32_t v) {
  switch (v) {
  case 0x00:
    out.push_back('0');
    return;
  case 0x07:
    out.push_back('a');
    return;
  case 0x08:
    out.push_back('b');
    return;
  case 0x09:
    out.push_back('t');
    return;
  case 0x0A:
    out.push_back('n');
    return;
  case 0x0B:
    out.push_back('v');
    return;
  case 0x0C:
    out.push_back('f');
    return;
  case 0x0D:
    out.push_back('r');
    return;
  case 0x1B:
    out.push_back('e');
    return;
  case 0x22:
    out.push_back('"');
    return;
  case 0x5C:
    out.push_back('\\');
    return;
  case 0x85:
    out.push_back('N');
    return;
  case 0xA0:
    out.push_back('_');
    return;
  case 0x2028:
    out.push_back('L');
    return;
  case 0x2029:
    out.push_back('P');
    return;
  default:
    break;
  }
  int digits = 8;
  if (v <= 0xFF) {
    out.push_back('x');
    digits = 2;
  } else if (v <= 0xFFFF) {
    out.push_back('u');
    digits = 4;
  } else {
    out.push_back('U');
  }
  for (int k = (digits - 1) * 4; k >= 0; k -= 4) {
    out.push_back(k_hex_upper[(v >> k) & 0xF]);
  }
}

Emitter::Style requested_string_style(std::string_view text) {
  if (text.find('\n') != std::string_view::npos) {
    return Emitter::Style::literal;
  }
  return plain_reads_as_string(text) ? Emitter::Style::plain : Emitter::Style::double_quoted;
}

} // namespace

Emitter::Analysis Emitter::analyze(std::string_view text) {
  Analysis info;
  const std::size_t n = text.size();
  if (n == 0) {
    info.block_allowed = false;
    return info;
  }
  const Bytes p = bytes_of(text);
  bool block_indicators = text.starts_with("---") || text.starts_with("...");
  bool line_breaks = false;
  bool special = false;
  bool leading_space = false;
  bool leading_break = false;
  bool trailing_space = false;
  bool trailing_break = false;
  bool break_space = false;
  bool space_break = false;
  bool preceded_by_whitespace = true;
  bool previous_space = false;
  bool previous_break = false;

  std::size_t i = 0;
  while (i < n) {
    if (i > 0 && k_ordinary_or_space[p[i]]) {
      // A run of characters that only matter as spaces: nothing in it is syntax.
      const std::size_t start = i;
      break_space = break_space || (previous_break && p[i] == ' ');
      std::uint64_t spaces = 0;
      while (i + 8 <= n) {
        const std::uint64_t word = util::swar::load(p + i);
        if ((util::swar::has_high(word) | util::swar::has_less(word, 0x20) |
             util::swar::has_byte(word, 0x7F) | util::swar::has_byte(word, ':') |
             util::swar::has_byte(word, '#')) != 0) {
          break;
        }
        spaces |= util::swar::has_byte(word, ' ');
        i += 8;
      }
      while (i < n && k_ordinary_or_space[p[i]]) {
        spaces |= p[i] == ' ' ? 1U : 0U;
        ++i;
      }
      info.chars += i - start;
      info.has_space = info.has_space || spaces != 0;
      trailing_space = trailing_space || (i == n && p[n - 1] == ' ');
      previous_space = p[i - 1] == ' ';
      previous_break = false;
      preceded_by_whitespace = previous_space;
      continue;
    }
    const unsigned char c = p[i];
    std::size_t w = 1;
    if (c >= 0x80) {
      const util::utf8::Rune r = util::utf8::decode(p + i, n - i);
      if (!r.valid) {
        info.invalid_utf8 = true;
        return info;
      }
      w = r.length;
      info.has_next_line = info.has_next_line || r.code == 0x85;
    }
    const bool followed_by_whitespace = i + w >= n || p[i + w] == ' ' || p[i + w] == '\t';
    if (i == 0) {
      if (is_first_char_indicator(c)) {
        block_indicators = true;
      } else if ((c == '?' || c == ':' || c == '-') && followed_by_whitespace) {
        block_indicators = true;
      }
    } else if (c == ':' && followed_by_whitespace) {
      block_indicators = true;
    } else if (c == '#' && preceded_by_whitespace) {
      block_indicators = true;
    }
    if (!is_printable(p, i)) {
      special = true;
    }
    if (c == ' ') {
      info.has_space = true;
      leading_space = leading_space || i == 0;
      trailing_space = trailing_space || i + w == n;
      break_space = break_space || previous_break;
      previous_space = true;
      previous_break = false;
    } else if (is_break(p, i)) {
      line_breaks = true;
      leading_break = leading_break || i == 0;
      trailing_break = trailing_break || i + w == n;
      space_break = space_break || previous_space;
      previous_space = false;
      previous_break = true;
    } else {
      previous_space = false;
      previous_break = false;
    }
    preceded_by_whitespace = is_blank_or_break_or_nul(p, i);
    i += w;
    ++info.chars;
  }

  info.multiline = line_breaks;
  info.plain_allowed = !(leading_space || leading_break || trailing_space || trailing_break ||
                         break_space || space_break || special || line_breaks || block_indicators);
  info.single_quoted_allowed = !(break_space || space_break || special);
  info.block_allowed = !(trailing_space || space_break || special);
  return info;
}

void Emitter::begin_document() {
  m_indents.clear();
  m_indent = -1;
  m_column = 0;
  m_whitespace = true;
  m_indention = true;
  m_mapping_context = false;
}

void Emitter::end_document() { write_indent(); }

void Emitter::begin_mapping() {
  m_indents.push_back(m_indent);
  m_indent = m_indent < 0 ? 0 : m_indent + k_best_indent;
}

void Emitter::end_mapping() {
  m_indent = m_indents.back();
  m_indents.pop_back();
}

void Emitter::begin_sequence() {
  const bool indentless = m_mapping_context && !m_indention;
  m_indents.push_back(m_indent);
  if (m_indent < 0) {
    m_indent = 0;
  } else if (!indentless) {
    m_indent += k_best_indent;
  }
}

void Emitter::end_sequence() { end_mapping(); }

void Emitter::empty_mapping() {
  write_indicator("{", true, true, false);
  write_indicator("}", false, false, false);
}

void Emitter::empty_sequence() {
  write_indicator("[", true, true, false);
  write_indicator("]", false, false, false);
}

std::string Emitter::fold_next_lines(std::string_view text) {
  constexpr std::string_view k_next_line = "\xC2\x85";
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const std::size_t start = i;
    while (i < n && text[i] != ' ' && text.substr(i, 2) != k_next_line) {
      ++i;
    }
    out.append(text, start, i - start);
    if (i >= n) {
      break;
    }
    std::size_t spaces = 0;
    std::size_t breaks = 0;
    while (i < n && (text[i] == ' ' || text.substr(i, 2) == k_next_line)) {
      if (text[i] == ' ') {
        spaces += breaks == 0 ? 1 : 0;
        ++i;
      } else {
        ++breaks;
        i += 2;
      }
    }
    if (breaks == 0) {
      out.append(spaces, ' ');
    } else if (breaks == 1) {
      out.push_back(' ');
    } else {
      out.append(breaks - 1, '\n');
    }
  }
  return out;
}

std::string_view Emitter::prepare(std::string_view text, Analysis& info, std::string& storage,
                                  NextLines next_lines) {
  info = analyze(text);
  if (info.invalid_utf8) {
    storage = util::utf8::sanitize(text);
    text = storage;
    info = analyze(text);
  }
  if (info.has_next_line && next_lines == NextLines::fold) {
    storage = fold_next_lines(text);
    text = storage;
    info = analyze(text);
  }
  return text;
}

void Emitter::key(std::string_view text) {
  Analysis info;
  std::string storage;
  text = prepare(text, info, storage, NextLines::keep);
  write_indent();
  // A plain "<<" key reads back as a merge key (go-yaml writes it plain, and then cannot read
  // what it wrote); quoted, it stays the string it is.
  const Style requested = text == "<<" ? Style::double_quoted : requested_string_style(text);
  if (!info.multiline && text.size() <= k_max_simple_key_length) {
    scalar(text, info, requested, true);
    write_indicator(":", false, false, false);
  } else {
    write_indicator("?", true, false, true);
    scalar(text, info, requested, false);
    write_indent();
    write_indicator(":", true, false, true);
  }
  m_mapping_context = true;
}

void Emitter::item() {
  write_indent();
  write_indicator("-", true, false, true);
  m_mapping_context = false;
}

void Emitter::string(std::string_view text) {
  Analysis info;
  std::string storage;
  text = prepare(text, info, storage, NextLines::fold);
  scalar(text, info, requested_string_style(text), false);
}

void Emitter::plain(std::string_view text) { scalar(text, analyze(text), Style::plain, false); }

void Emitter::scalar(std::string_view text, const Analysis& info, Style requested,
                     bool simple_key) {
  Style style = requested;
  if (simple_key && info.multiline) {
    style = Style::double_quoted;
  }
  if (style == Style::plain && (!info.plain_allowed || (text.empty() && simple_key))) {
    style = Style::single_quoted;
  }
  if (style == Style::single_quoted && !info.single_quoted_allowed) {
    style = Style::double_quoted;
  }
  if (style == Style::literal && (!info.block_allowed || simple_key)) {
    style = Style::double_quoted;
  }

  const int saved_indent = m_indent;
  m_indent = m_indent < 0 ? k_best_indent : m_indent + k_best_indent;
  switch (style) {
  case Style::plain:
    write_plain(text, info, !simple_key);
    break;
  case Style::single_quoted:
    write_single_quoted(text, !simple_key);
    break;
  case Style::double_quoted:
    write_double_quoted(text, !simple_key);
    break;
  case Style::literal:
    write_literal(text);
    break;
  }
  m_indent = saved_indent;
}

void Emitter::write_plain(std::string_view text, const Analysis& info, bool allow_breaks) {
  if (!m_whitespace) {
    put(' ');
  }
  if (!info.has_space && !info.multiline) {
    m_out.append(text);
    m_column += info.chars;
  } else {
    const Bytes p = bytes_of(text);
    const std::size_t n = text.size();
    bool spaces = false;
    bool breaks = false;
    std::size_t i = 0;
    while (i < n) {
      if (p[i] == ' ') {
        if (allow_breaks && !spaces && m_column > k_best_width && !(i + 1 < n && p[i + 1] == ' ')) {
          write_indent();
          ++i;
        } else {
          put(' ');
          ++i;
        }
        spaces = true;
      } else if (is_break(p, i)) {
        if (!breaks && p[i] == '\n') {
          put_break();
        }
        write_break(text, i);
        m_indention = true;
        breaks = true;
      } else {
        if (breaks) {
          write_indent();
        }
        i = write_run(text, i, true);
        m_indention = false;
        spaces = false;
        breaks = false;
      }
    }
  }
  m_whitespace = false;
  m_indention = false;
}

void Emitter::write_single_quoted(std::string_view text, bool allow_breaks) {
  write_indicator("'", true, false, false);
  const Bytes p = bytes_of(text);
  const std::size_t n = text.size();
  bool spaces = false;
  bool breaks = false;
  std::size_t i = 0;
  while (i < n) {
    if (p[i] == ' ') {
      if (allow_breaks && !spaces && m_column > k_best_width && i > 0 && i < n - 1 &&
          p[i + 1] != ' ') {
        write_indent();
        ++i;
      } else {
        put(' ');
        ++i;
      }
      spaces = true;
    } else if (is_break(p, i)) {
      if (!breaks && p[i] == '\n') {
        put_break();
      }
      write_break(text, i);
      m_indention = true;
      breaks = true;
    } else {
      if (breaks) {
        write_indent();
      }
      if (p[i] == '\'') {
        put('\'');
      }
      write_char(text, i);
      m_indention = false;
      spaces = false;
      breaks = false;
    }
  }
  write_indicator("'", false, false, false);
  m_whitespace = false;
  m_indention = false;
}

void Emitter::write_double_quoted(std::string_view text, bool allow_breaks) {
  write_indicator("\"", true, false, false);
  const Bytes p = bytes_of(text);
  const std::size_t n = text.size();
  // go-yaml tests for a byte order mark at the start of the value, not at the current
  // character: a value that starts with one has every character escaped.
  const bool starts_with_bom = text.starts_with("\xEF\xBB\xBF");
  bool spaces = false;
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    if (starts_with_bom || !is_printable(p, i) || is_break(p, i) || c == '"' || c == '\\') {
      const std::size_t w = width(c);
      const char32_t v = decode_valid(p, i, w);
      i += w;
      m_out.push_back('\\');
      const std::size_t before = m_out.size();
      append_escape(m_out, v);
      m_column += 1 + (m_out.size() - before);
      spaces = false;
    } else if (c == ' ') {
      if (allow_breaks && !spaces && m_column > k_best_width && i > 0 && i < n - 1) {
        write_indent();
        if (p[i + 1] == ' ') {
          put('\\');
        }
        ++i;
      } else {
        put(' ');
        ++i;
      }
      spaces = true;
    } else {
      write_char(text, i);
      spaces = false;
    }
  }
  write_indicator("\"", false, false, false);
  m_whitespace = false;
  m_indention = false;
}

void Emitter::write_block_hints(std::string_view text) {
  const Bytes p = bytes_of(text);
  if (p[0] == ' ' || is_break(p, 0)) {
    static_assert(k_best_indent == 2);
    write_indicator("2", false, false, false); // the indentation indicator
  }
  std::size_t i = text.size() - 1;
  while ((p[i] & 0xC0) == 0x80) {
    --i;
  }
  const char* chomp = nullptr;
  if (!is_break(p, i)) {
    chomp = "-";
  } else if (i == 0) {
    chomp = "+";
  } else {
    --i;
    while ((p[i] & 0xC0) == 0x80) {
      --i;
    }
    if (is_break(p, i)) {
      chomp = "+";
    }
  }
  if (chomp != nullptr) {
    write_indicator(chomp, false, false, false);
  }
}

void Emitter::write_literal(std::string_view text) {
  write_indicator("|", true, false, false);
  write_block_hints(text);
  put_break();
  m_indention = true;
  m_whitespace = true;
  const Bytes p = bytes_of(text);
  const std::size_t n = text.size();
  bool breaks = true;
  std::size_t i = 0;
  while (i < n) {
    if (is_break(p, i)) {
      write_break(text, i);
      m_indention = true;
      breaks = true;
    } else {
      if (breaks) {
        write_indent();
      }
      i = write_run(text, i, false);
      m_indention = false;
      breaks = false;
    }
  }
}

void Emitter::write_indent() {
  const std::size_t indent = m_indent < 0 ? 0 : static_cast<std::size_t>(m_indent);
  if (!m_indention || m_column > indent || (m_column == indent && !m_whitespace)) {
    put_break();
  }
  if (m_column < indent) {
    m_out.append(indent - m_column, ' ');
    m_column = indent;
  }
  m_whitespace = true;
  m_indention = true;
}

void Emitter::write_indicator(std::string_view indicator, bool need_whitespace, bool is_whitespace,
                              bool is_indention) {
  if (need_whitespace && !m_whitespace) {
    put(' ');
  }
  m_out.append(indicator);
  m_column += indicator.size();
  m_whitespace = is_whitespace;
  m_indention = m_indention && is_indention;
}

void Emitter::put(char c) {
  m_out.push_back(c);
  ++m_column;
}

void Emitter::put_break() {
  m_out.push_back('\n');
  m_column = 0;
}

void Emitter::write_char(std::string_view text, std::size_t& i) {
  const std::size_t w = width(static_cast<unsigned char>(text[i]));
  m_out.append(text.data() + i, w);
  ++m_column;
  i += w;
}

void Emitter::write_break(std::string_view text, std::size_t& i) {
  if (text[i] == '\n') {
    put_break();
    ++i;
  } else {
    write_char(text, i);
    m_column = 0;
  }
}

std::size_t Emitter::write_run(std::string_view text, std::size_t i, bool stop_at_space) {
  const Bytes p = bytes_of(text);
  const std::size_t n = text.size();
  const std::size_t start = i;
  std::size_t chars = 0;
  while (i < n) {
    if (i + 8 <= n) {
      const std::uint64_t word = util::swar::load(p + i);
      if ((util::swar::has_high(word) | util::swar::has_byte(word, '\n') |
           util::swar::has_byte(word, '\r') |
           (stop_at_space ? util::swar::has_byte(word, ' ') : 0)) == 0) {
        i += 8;
        chars += 8;
        continue;
      }
    }
    const unsigned char c = p[i];
    if (c < 0x80) {
      if (c == '\n' || c == '\r' || (stop_at_space && c == ' ')) {
        break;
      }
      ++i;
    } else {
      if (is_break(p, i)) {
        break;
      }
      i += width(c);
    }
    ++chars;
  }
  m_out.append(text.data() + start, i - start);
  m_column += chars;
  return i;
}

} // namespace opm::yaml
