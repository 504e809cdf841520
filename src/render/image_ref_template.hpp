#pragma once

#include "render/image_ref_template_lexer.hpp"
#include "util/error.hpp"

#include <string>
#include <string_view>
#include <vector>

// The --alpha-image-ref-template flag: a small subset of Go's text/template, enough for
// image references. Supported: plain text, {{.Package}} {{.Name}} {{.Version}} (and field
// chains or {{.}} with Go's error for what the data does not have), string literals,
// comments and the {{- / -}} whitespace trim markers. Errors use Go's words.
namespace opm::render {

struct ImageRefFields {
  std::string package; // the annotations' package
  std::string name;    // the bundle (CSV) name
  std::string version; // the version of the bundle's first olm.package property
};

class ImageRefTemplate {
public:
  // Errors read as Go's parse errors, e.g. "template: image-ref-template:1: unclosed action".
  static Result<ImageRefTemplate> parse(std::string_view text);

  // Errors read as Go's execution errors, e.g. `template: image-ref-template:1:2: executing
  // "image-ref-template" at <.Foo>: can't evaluate field Foo in type
  // action.imageReferenceTemplateData`.
  [[nodiscard]] Result<std::string> execute(const ImageRefFields& fields) const;

private:
  struct Node {
    enum class Kind { text, dot, field, literal };
    Kind kind = Kind::text;
    std::string text;               // text, literal: what is printed
    std::vector<std::string> chain; // field: the names after each '.'
    std::size_t pos = 0;            // field: where Go places the node, for error locations
  };
  // One action's tokens as a node, with Go's parse errors for what is not supported.
  static Result<Node> parse_action(std::string_view text, const image_ref_lexer::Action& action);

  std::string m_source;
  std::vector<Node> m_nodes;
};

} // namespace opm::render
