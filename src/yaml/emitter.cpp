#include "yaml/emitter.hpp"

#include "yaml/detail/emitter_chars.hpp"

namespace opm::yaml {

using namespace detail;

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
