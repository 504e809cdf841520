#include "render/image_ref_template_lexer.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace opm::render::image_ref_lexer {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_alnum(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         static_cast<unsigned char>(c) >= 0x80;
}

// Where an action's content ends: at "}}", or at a right trim marker " -}}".
struct ActionEnd {
  std::size_t content_end; // first byte not part of the action's tokens
  std::size_t after;       // first byte after "}}"
  bool trim_right;
};

std::optional<ActionEnd> action_end_at(std::string_view text, std::size_t pos) {
  if (text.substr(pos, 2) == "}}") {
    return ActionEnd{pos, pos + 2, false};
  }
  if (pos < text.size() && is_space(text[pos]) && text.substr(pos + 1, 3) == "-}}") {
    return ActionEnd{pos, pos + 4, true};
  }
  return std::nullopt;
}

} // namespace

std::size_t line_at(std::string_view text, std::size_t pos) {
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + pos, '\n'));
}

std::unexpected<Error> parse_error(std::string_view text, std::size_t pos, std::string_view what) {
  return util::fail(Errc::invalid,
                    fmt::format("template: {}:{}: {}", k_template_name, line_at(text, pos), what));
}

std::string_view Lexer::trimmed(std::string_view s) {
  if (m_trim_next) {
    while (!s.empty() && is_space(s.front())) {
      s.remove_prefix(1);
    }
    m_trim_next = false;
  }
  return s;
}

Result<Segment> Lexer::next() {
  std::size_t open = m_text.find("{{", m_pos);
  if (open == std::string_view::npos) {
    Segment last{trimmed(m_text.substr(m_pos)), std::nullopt};
    m_pos = m_text.size();
    return last;
  }
  std::string_view before = m_text.substr(m_pos, open - m_pos);
  std::size_t cur = open + 2;
  if (cur + 1 < m_text.size() && m_text[cur] == '-' && is_space(m_text[cur + 1])) {
    while (!before.empty() && is_space(before.back())) {
      before.remove_suffix(1);
    }
    cur += 2;
  }
  Segment segment{trimmed(before), std::nullopt};

  if (m_text.substr(cur, 2) == "/*") {
    std::size_t close = m_text.find("*/", cur + 2);
    if (close == std::string_view::npos) {
      return parse_error(m_text, m_text.size(), "unclosed comment");
    }
    auto end = action_end_at(m_text, close + 2);
    if (!end) {
      return parse_error(m_text, close, "comment ends before closing delimiter");
    }
    m_trim_next = end->trim_right;
    m_pos = end->after;
    return segment;
  }
  segment.action = OPM_TRY(action(open, cur));
  return segment;
}

Result<Token> Lexer::field(std::size_t start, std::size_t& cur) const {
  Token tok{Token::Kind::field, {}, start, {}};
  while (cur < m_text.size() && m_text[cur] == '.' && cur + 1 < m_text.size() &&
         is_alnum(m_text[cur + 1])) {
    std::size_t name_start = ++cur;
    while (cur < m_text.size() && is_alnum(m_text[cur])) {
      ++cur;
    }
    tok.chain.emplace_back(m_text.substr(name_start, cur - name_start));
  }
  if (tok.chain.empty()) {
    ++cur;
    tok.kind = Token::Kind::dot;
  } else if (tok.chain.size() > 1) {
    // Go positions a field chain at its second element.
    tok.pos = start + 1 + tok.chain.front().size();
  }
  if (cur < m_text.size() && !is_space(m_text[cur]) && !action_end_at(m_text, cur)) {
    return parse_error(
        m_text, cur,
        fmt::format("unexpected {} in operand", util::go_quote(m_text.substr(cur, 1))));
  }
  tok.text = m_text.substr(start, cur - start);
  return tok;
}

// Tokens from `cur` up to the closing delimiter of the action opened at `open`.
Result<Action> Lexer::action(std::size_t open, std::size_t cur) {
  Action out;
  const std::string_view text = m_text;
  while (true) {
    if (cur >= text.size()) {
      return parse_error(text, text.size(), "unclosed action");
    }
    if (auto end = action_end_at(text, cur)) {
      out.end = cur;
      m_trim_next = end->trim_right;
      m_pos = end->after;
      return out;
    }
    char c = text[cur];
    if (is_space(c)) {
      ++cur;
      continue;
    }
    std::size_t start = cur;
    if (c == '"') {
      ++cur;
      while (cur < text.size() && text[cur] != '"' && text[cur] != '\n') {
        cur += text[cur] == '\\' && cur + 1 < text.size() && text[cur + 1] != '\n' ? 2 : 1;
      }
      if (cur >= text.size() || text[cur] != '"') {
        return parse_error(text, cur, "unterminated quoted string");
      }
      ++cur;
      out.tokens.push_back({Token::Kind::string, text.substr(start, cur - start), start, {}});
    } else if (c == '`') {
      std::size_t close = text.find('`', cur + 1);
      if (close == std::string_view::npos) {
        return parse_error(text, text.size(), "unterminated raw quoted string");
      }
      cur = close + 1;
      out.tokens.push_back({Token::Kind::string, text.substr(start, cur - start), start, {}});
    } else if (c == '.') {
      out.tokens.push_back(OPM_TRY(field(start, cur)));
    } else if (is_alnum(c) && !(c >= '0' && c <= '9')) {
      while (cur < text.size() && is_alnum(text[cur])) {
        ++cur;
      }
      out.tokens.push_back({Token::Kind::identifier, text.substr(start, cur - start), start, {}});
    } else if (c == '}') {
      return parse_error(text, cur, "unexpected \"}\" in operand");
    } else {
      std::size_t close = text.find("}}", cur);
      std::string_view whole = text.substr(
          open, close == std::string_view::npos ? std::string_view::npos : close + 2 - open);
      return parse_error(text, cur, fmt::format("unsupported action {}", util::go_quote(whole)));
    }
  }
}

} // namespace opm::render::image_ref_lexer
