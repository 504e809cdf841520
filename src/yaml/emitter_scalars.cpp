#include "yaml/detail/emitter_chars.hpp"
#include "yaml/emitter.hpp"

// The scalar styles as go-yaml writes them: plain, single- and double-quoted, literal.
namespace opm::yaml {

using namespace detail;

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

} // namespace opm::yaml
