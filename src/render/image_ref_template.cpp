#include "render/image_ref_template.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace opm::render {

namespace {

constexpr std::string_view k_name = "image-ref-template";
constexpr std::string_view k_data_type = "action.imageReferenceTemplateData";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_alnum(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         static_cast<unsigned char>(c) >= 0x80;
}

std::size_t line_at(std::string_view text, std::size_t pos) {
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + pos, '\n'));
}

std::unexpected<Error> parse_error(std::string_view text, std::size_t pos, std::string_view what) {
  return util::fail(Errc::invalid,
                    fmt::format("template: {}:{}: {}", k_name, line_at(text, pos), what));
}

// strconv.Unquote of a "..." literal (the common escapes).
std::optional<std::string> unquote(std::string_view quoted) {
  std::string out;
  std::string_view s = quoted.substr(1, quoted.size() - 2);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i >= s.size()) {
      return std::nullopt;
    }
    switch (s[i]) {
    case 'a':
      out += '\a';
      break;
    case 'b':
      out += '\b';
      break;
    case 'f':
      out += '\f';
      break;
    case 'n':
      out += '\n';
      break;
    case 'r':
      out += '\r';
      break;
    case 't':
      out += '\t';
      break;
    case 'v':
      out += '\v';
      break;
    case '\\':
    case '"':
      out += s[i];
      break;
    case 'x':
    case 'u':
    case 'U': {
      std::size_t digits = s[i] == 'x' ? 2 : (s[i] == 'u' ? 4 : 8);
      if (i + digits >= s.size()) {
        return std::nullopt;
      }
      unsigned long value = 0;
      for (std::size_t k = 1; k <= digits; ++k) {
        char c = s[i + k];
        int d = (c >= '0' && c <= '9')   ? c - '0'
                : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                         : -1;
        if (d < 0) {
          return std::nullopt;
        }
        value = value * 16 + static_cast<unsigned long>(d);
      }
      i += digits;
      if (digits == 2) {
        out += static_cast<char>(value);
      } else {
        util::append_utf8(out, static_cast<char32_t>(value));
      }
      break;
    }
    default:
      return std::nullopt;
    }
  }
  return out;
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

Result<ImageRefTemplate> ImageRefTemplate::parse(std::string_view text) {
  ImageRefTemplate t;
  t.m_source = std::string(text);
  bool trim_next = false;
  std::size_t pos = 0;
  auto add_text = [&](std::string_view s) {
    if (trim_next) {
      while (!s.empty() && is_space(s.front())) {
        s.remove_prefix(1);
      }
      trim_next = false;
    }
    if (!s.empty()) {
      t.m_nodes.push_back({Node::Kind::text, std::string(s), {}, 0});
    }
  };
  while (pos < text.size()) {
    std::size_t open = text.find("{{", pos);
    if (open == std::string_view::npos) {
      add_text(text.substr(pos));
      break;
    }
    std::string_view before = text.substr(pos, open - pos);
    std::size_t cur = open + 2;
    if (cur + 1 < text.size() && text[cur] == '-' && is_space(text[cur + 1])) {
      while (!before.empty() && is_space(before.back())) {
        before.remove_suffix(1);
      }
      cur += 2;
    }
    add_text(before);

    if (text.substr(cur, 2) == "/*") {
      std::size_t close = text.find("*/", cur + 2);
      if (close == std::string_view::npos) {
        return parse_error(text, text.size(), "unclosed comment");
      }
      auto end = action_end_at(text, close + 2);
      if (!end) {
        return parse_error(text, close, "comment ends before closing delimiter");
      }
      trim_next = end->trim_right;
      pos = end->after;
      continue;
    }

    // Tokens up to the closing delimiter.
    struct Token {
      enum class Kind { dot, field, string, identifier } kind;
      std::string_view text;
      std::size_t pos;
      std::vector<std::string> chain;
    };
    std::vector<Token> tokens;
    std::optional<ActionEnd> end;
    while (true) {
      if (cur >= text.size()) {
        return parse_error(text, text.size(), "unclosed action");
      }
      if ((end = action_end_at(text, cur))) {
        break;
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
        tokens.push_back({Token::Kind::string, text.substr(start, cur - start), start, {}});
      } else if (c == '`') {
        std::size_t close = text.find('`', cur + 1);
        if (close == std::string_view::npos) {
          return parse_error(text, text.size(), "unterminated raw quoted string");
        }
        cur = close + 1;
        tokens.push_back({Token::Kind::string, text.substr(start, cur - start), start, {}});
      } else if (c == '.') {
        Token tok{Token::Kind::field, {}, start, {}};
        while (cur < text.size() && text[cur] == '.' && cur + 1 < text.size() &&
               is_alnum(text[cur + 1])) {
          std::size_t name_start = ++cur;
          while (cur < text.size() && is_alnum(text[cur])) {
            ++cur;
          }
          tok.chain.emplace_back(text.substr(name_start, cur - name_start));
        }
        if (tok.chain.empty()) {
          ++cur;
          tok.kind = Token::Kind::dot;
        } else if (tok.chain.size() > 1) {
          // Go positions a field chain at its second element.
          tok.pos = start + 1 + tok.chain.front().size();
        }
        if (cur < text.size() && !is_space(text[cur]) && !action_end_at(text, cur)) {
          return parse_error(
              text, cur,
              fmt::format("unexpected {} in operand", util::go_quote(text.substr(cur, 1))));
        }
        tok.text = text.substr(start, cur - start);
        tokens.push_back(std::move(tok));
      } else if (is_alnum(c) && !(c >= '0' && c <= '9')) {
        while (cur < text.size() && is_alnum(text[cur])) {
          ++cur;
        }
        tokens.push_back({Token::Kind::identifier, text.substr(start, cur - start), start, {}});
      } else if (c == '}') {
        return parse_error(text, cur, "unexpected \"}\" in operand");
      } else {
        std::size_t close = text.find("}}", cur);
        std::string_view action = text.substr(
            open, close == std::string_view::npos ? std::string_view::npos : close + 2 - open);
        return parse_error(text, cur, fmt::format("unsupported action {}", util::go_quote(action)));
      }
    }

    if (tokens.empty()) {
      return parse_error(text, cur, "missing value for command");
    }
    const Token& first = tokens.front();
    if (first.kind == Token::Kind::identifier) {
      std::string_view id = first.text;
      if (id == "end" || id == "else") {
        return parse_error(text, first.pos, fmt::format("unexpected {{{{{}}}}}", id));
      }
      if (id == "nil") {
        return parse_error(text, first.pos, "nil is not a command");
      }
      if (id == "true" || id == "false") {
        if (tokens.size() == 1) {
          t.m_nodes.push_back({Node::Kind::literal, std::string(id), {}, 0});
          trim_next = end->trim_right;
          pos = end->after;
          continue;
        }
      }
      static constexpr std::string_view k_builtins[] = {
          "and",  "call",   "html",     "index",  "slice",   "js",       "len",
          "not",  "or",     "print",    "printf", "println", "urlquery", "eq",
          "ge",   "gt",     "le",       "lt",     "ne",      "if",       "range",
          "with", "define", "template", "block",  "break",   "continue"};
      if (std::find(std::begin(k_builtins), std::end(k_builtins), id) == std::end(k_builtins)) {
        return parse_error(text, first.pos,
                           fmt::format("function {} not defined", util::go_quote(id)));
      }
      return parse_error(text, first.pos, fmt::format("unsupported action {}", util::go_quote(id)));
    }
    if (tokens.size() > 1) {
      return parse_error(text, tokens[1].pos, "unsupported action with arguments");
    }
    switch (first.kind) {
    case Token::Kind::dot:
      t.m_nodes.push_back({Node::Kind::dot, {}, {}, first.pos});
      break;
    case Token::Kind::field:
      t.m_nodes.push_back({Node::Kind::field, std::string(first.text), first.chain, first.pos});
      break;
    default: {
      std::optional<std::string> s;
      if (first.text.front() == '`') {
        s = std::string(first.text.substr(1, first.text.size() - 2));
      } else {
        s = unquote(first.text);
      }
      if (!s) {
        return parse_error(text, first.pos, "invalid syntax");
      }
      t.m_nodes.push_back({Node::Kind::literal, std::move(*s), {}, 0});
    }
    }
    trim_next = end->trim_right;
    pos = end->after;
  }
  return t;
}

Result<std::string> ImageRefTemplate::execute(const ImageRefFields& fields) const {
  std::string out;
  for (const auto& node : m_nodes) {
    switch (node.kind) {
    case Node::Kind::text:
    case Node::Kind::literal:
      out += node.text;
      break;
    case Node::Kind::dot:
      out += fmt::format("{{{} {} {}}}", fields.package, fields.name, fields.version);
      break;
    case Node::Kind::field: {
      const std::string* value = nullptr;
      const std::string& first = node.chain.front();
      if (first == "Package") {
        value = &fields.package;
      } else if (first == "Name") {
        value = &fields.name;
      } else if (first == "Version") {
        value = &fields.version;
      }
      std::string_view missing;
      std::string_view type = k_data_type;
      if (value == nullptr) {
        missing = first;
      } else if (node.chain.size() > 1) {
        missing = node.chain[1];
        type = "string";
      }
      if (!missing.empty()) {
        std::string_view before(m_source.data(), node.pos);
        auto last_nl = before.rfind('\n');
        std::size_t col = last_nl == std::string_view::npos ? node.pos : node.pos - last_nl - 1;
        std::string context = node.text;
        if (context.size() > 20) {
          context = context.substr(0, 20) + "...";
        }
        return util::fail(Errc::invalid,
                          fmt::format("template: {}:{}:{}: executing {} at <{}>: can't evaluate "
                                      "field {} in type {}",
                                      k_name, line_at(m_source, node.pos), col,
                                      util::go_quote(k_name), context, missing, type));
      }
      out += *value;
      break;
    }
    }
  }
  return out;
}

} // namespace opm::render
