#include "render/image_ref_template_lexer.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace opm::render::image_ref_lexer;

namespace {

std::vector<Segment> segments(std::string_view text) {
  Lexer lexer(text);
  std::vector<Segment> out;
  while (!lexer.done()) {
    auto s = lexer.next();
    REQUIRE_MESSAGE(s.has_value(), s.error().message());
    out.push_back(std::move(*s));
  }
  return out;
}

std::string lex_error(std::string_view text) {
  Lexer lexer(text);
  while (!lexer.done()) {
    auto s = lexer.next();
    if (!s) {
      return s.error().message();
    }
  }
  FAIL("no error");
  return {};
}

} // namespace

TEST_SUITE("image reference template lexer") {
  TEST_CASE("splits text from action tokens and applies trim markers") {
    auto s = segments("quay.io/ \n{{- .Package -}}\n :{{.Version}} -x");
    REQUIRE(s.size() == 3);
    CHECK(s[0].text == "quay.io/");
    REQUIRE(s[0].action);
    REQUIRE(s[0].action->tokens.size() == 1);
    CHECK(s[0].action->tokens[0].kind == Token::Kind::field);
    CHECK(s[0].action->tokens[0].chain == std::vector<std::string>{"Package"});
    CHECK(s[1].text == ":");
    CHECK(s[1].action->tokens[0].text == ".Version");
    CHECK(s[2].text == " -x");
    CHECK_FALSE(s[2].action);
  }

  TEST_CASE("skips comments and keeps strings with their quotes") {
    auto s = segments("a{{/* note */}}b{{ \"x\" `y` name . }}");
    REQUIRE(s.size() == 2);
    CHECK(s[0].text == "a");
    CHECK_FALSE(s[0].action);
    CHECK(s[1].text == "b");
    const auto& tokens = s[1].action->tokens;
    REQUIRE(tokens.size() == 4);
    CHECK(tokens[0].kind == Token::Kind::string);
    CHECK(tokens[0].text == "\"x\"");
    CHECK(tokens[1].text == "`y`");
    CHECK(tokens[2].kind == Token::Kind::identifier);
    CHECK(tokens[3].kind == Token::Kind::dot);
    CHECK(s[1].action->end == std::string_view("a{{/* note */}}b{{ \"x\" `y` name . ").size());
  }

  TEST_CASE("reports lexical errors with Go's words and line") {
    CHECK(lex_error("x\n{{.Name") == "template: image-ref-template:2: unclosed action");
    CHECK(lex_error("{{/* x") == "template: image-ref-template:1: unclosed comment");
    CHECK(lex_error("{{\"abc}}") == "template: image-ref-template:1: unterminated quoted string");
    CHECK(lex_error("{{.Name!}}") == "template: image-ref-template:1: unexpected \"!\" in operand");
    CHECK(lex_error("{{ 1 }}") == "template: image-ref-template:1: unsupported action \"{{ 1 }}\"");
  }
}
