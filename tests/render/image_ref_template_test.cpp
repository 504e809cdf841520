#include "render/image_ref_template.hpp"

#include <doctest/doctest.h>

using opm::render::ImageRefFields;
using opm::render::ImageRefTemplate;

namespace {
const ImageRefFields k_fields{"etcd", "etcdoperator.v0.9.4", "0.9.4"};

std::string render(std::string_view text) {
  auto t = ImageRefTemplate::parse(text);
  REQUIRE(t);
  auto out = t->execute(k_fields);
  REQUIRE(out);
  return *out;
}

std::string parse_error(std::string_view text) {
  auto t = ImageRefTemplate::parse(text);
  REQUIRE_FALSE(t);
  return t.error().message();
}

std::string execute_error(std::string_view text) {
  auto t = ImageRefTemplate::parse(text);
  REQUIRE(t);
  auto out = t->execute(k_fields);
  REQUIRE_FALSE(out);
  return out.error().message();
}
} // namespace

TEST_SUITE("image_ref_template") {
  TEST_CASE("substitutes the package, name and version") {
    CHECK(render("quay.io/acme/{{.Package}}-bundle:v{{ .Version }}") ==
          "quay.io/acme/etcd-bundle:v0.9.4");
    CHECK(render("{{.Name}}") == "etcdoperator.v0.9.4");
    CHECK(render("plain") == "plain");
    CHECK(render("") == "");
  }

  TEST_CASE("prints the whole data for a dot, string literals, and drops comments") {
    CHECK(render("{{.}}") == "{etcd etcdoperator.v0.9.4 0.9.4}");
    CHECK(render(R"(a{{"-\x41\n"}}b{{`raw\n`}})") == "a-A\nbraw\\n");
    CHECK(render("x{{/* a comment */}}y") == "xy");
  }

  TEST_CASE("trims whitespace around actions with the trim markers") {
    CHECK(render("reg  \n {{- .Package -}} \n :tag") == "regetcd:tag");
    CHECK(render("a {{- /* c */ -}} b") == "ab");
  }

  TEST_CASE("reports parse errors in Go's words") {
    CHECK(parse_error("{{.Package") == "template: image-ref-template:1: unclosed action");
    CHECK(parse_error("a\n{{.Package}") ==
          "template: image-ref-template:2: unexpected \"}\" in operand");
    CHECK(parse_error("{{}}") == "template: image-ref-template:1: missing value for command");
    CHECK(parse_error("{{foo}}") == "template: image-ref-template:1: function \"foo\" not defined");
    CHECK(parse_error("{{end}}") == "template: image-ref-template:1: unexpected {{end}}");
    CHECK(parse_error("{{\"abc}}") == "template: image-ref-template:1: unterminated quoted string");
    CHECK(parse_error("{{/* x") == "template: image-ref-template:1: unclosed comment");
    CHECK(parse_error("{{/* x */ .Name}}") ==
          "template: image-ref-template:1: comment ends before closing delimiter");
  }

  TEST_CASE("says which actions it does not support") {
    CHECK(parse_error("{{if .Name}}x{{end}}") ==
          "template: image-ref-template:1: unsupported action \"if\"");
    CHECK(parse_error("{{.Name | printf}}") ==
          "template: image-ref-template:1: unsupported action \"{{.Name | printf}}\"");
  }

  TEST_CASE("reports unknown fields when executing, with Go's location and context") {
    CHECK(execute_error("{{.Foo}}") ==
          "template: image-ref-template:1:2: executing \"image-ref-template\" at <.Foo>: can't "
          "evaluate field Foo in type action.imageReferenceTemplateData");
    CHECK(execute_error("ab\ncd{{.package}}") ==
          "template: image-ref-template:2:4: executing \"image-ref-template\" at <.package>: "
          "can't evaluate field package in type action.imageReferenceTemplateData");
    CHECK(execute_error("{{.Version.Major}}") ==
          "template: image-ref-template:1:10: executing \"image-ref-template\" at "
          "<.Version.Major>: can't evaluate field Major in type string");
  }
}
