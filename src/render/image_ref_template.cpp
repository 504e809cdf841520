#include "render/image_ref_template.hpp"

#include "render/image_ref_template_lexer.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace opm::render {

namespace {

using image_ref_lexer::k_template_name;
using image_ref_lexer::line_at;
using image_ref_lexer::parse_error;
using image_ref_lexer::Token;

constexpr std::string_view k_data_type = "action.imageReferenceTemplateData";

// Go's error for an action that starts with an identifier we do not run.
std::unexpected<Error> identifier_error(std::string_view text, const Token& first) {
  std::string_view id = first.text;
  if (id == "end" || id == "else") {
    return parse_error(text, first.pos, fmt::format("unexpected {{{{{}}}}}", id));
  }
  if (id == "nil") {
    return parse_error(text, first.pos, "nil is not a command");
  }
  static constexpr std::string_view k_builtins[] = {
      "and",   "call",   "html",    "index",    "slice",  "js",       "len",   "not",   "or",
      "print", "printf", "println", "urlquery", "eq",     "ge",       "gt",    "le",    "lt",
      "ne",    "if",     "range",   "with",     "define", "template", "block", "break", "continue"};
  if (std::find(std::begin(k_builtins), std::end(k_builtins), id) == std::end(k_builtins)) {
    return parse_error(text, first.pos, fmt::format("function {} not defined", util::go_quote(id)));
  }
  return parse_error(text, first.pos, fmt::format("unsupported action {}", util::go_quote(id)));
}

} // namespace

Result<ImageRefTemplate::Node> ImageRefTemplate::parse_action(std::string_view text,
                                                              const image_ref_lexer::Action& a) {
  if (a.tokens.empty()) {
    return parse_error(text, a.end, "missing value for command");
  }
  const Token& first = a.tokens.front();
  if (first.kind == Token::Kind::identifier) {
    if ((first.text == "true" || first.text == "false") && a.tokens.size() == 1) {
      return Node{Node::Kind::literal, std::string(first.text), {}, 0};
    }
    return identifier_error(text, first);
  }
  if (a.tokens.size() > 1) {
    return parse_error(text, a.tokens[1].pos, "unsupported action with arguments");
  }
  switch (first.kind) {
  case Token::Kind::dot:
    return Node{Node::Kind::dot, {}, {}, first.pos};
  case Token::Kind::field:
    return Node{Node::Kind::field, std::string(first.text), first.chain, first.pos};
  default: {
    std::optional<std::string> s;
    if (first.text.front() == '`') {
      s = std::string(first.text.substr(1, first.text.size() - 2));
    } else {
      s = util::go_unquote(first.text);
    }
    if (!s) {
      return parse_error(text, first.pos, "invalid syntax");
    }
    return Node{Node::Kind::literal, std::move(*s), {}, 0};
  }
  }
}

Result<ImageRefTemplate> ImageRefTemplate::parse(std::string_view text) {
  ImageRefTemplate t;
  t.m_source = std::string(text);
  image_ref_lexer::Lexer lexer(text);
  while (!lexer.done()) {
    auto segment = OPM_TRY(lexer.next());
    if (!segment.text.empty()) {
      t.m_nodes.push_back({Node::Kind::text, std::string(segment.text), {}, 0});
    }
    if (segment.action) {
      t.m_nodes.push_back(OPM_TRY(parse_action(text, *segment.action)));
    }
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
                                      k_template_name, line_at(m_source, node.pos), col,
                                      util::go_quote(k_template_name), context, missing, type));
      }
      out += *value;
      break;
    }
    }
  }
  return out;
}

} // namespace opm::render
