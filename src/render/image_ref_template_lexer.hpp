#pragma once

#include "util/error.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The lexer of the --alpha-image-ref-template language (see image_ref_template.hpp): splits
// the template into plain text and the tokens of each {{action}}, applying the {{- / -}}
// trim markers and skipping comments, as Go's text/template/parse lexer does.
namespace opm::render::image_ref_lexer {

inline constexpr std::string_view k_template_name = "image-ref-template";

// "template: image-ref-template:<line of pos>: <what>", Go's parse error.
std::unexpected<Error> parse_error(std::string_view text, std::size_t pos, std::string_view what);

// 1-based line of the byte at `pos`.
std::size_t line_at(std::string_view text, std::size_t pos);

struct Token {
  enum class Kind { dot, field, string, identifier };
  Kind kind = Kind::dot;
  std::string_view text;          // as written; strings keep their quotes
  std::size_t pos = 0;            // where Go places the token, for error locations
  std::vector<std::string> chain; // field: the names after each '.'
};

struct Action {
  std::vector<Token> tokens;
  std::size_t end = 0; // where the closing delimiter (or its trim marker) starts
};

// Text up to the next action, then that action: none for a comment or at the end.
struct Segment {
  std::string_view text; // trimmed as the markers around it ask; may be empty
  std::optional<Action> action;
};

class Lexer {
public:
  explicit Lexer(std::string_view text) : m_text(text) {}

  [[nodiscard]] bool done() const { return m_pos >= m_text.size(); }
  // The next segment. Errors: unclosed comment or action, unterminated strings,
  // unexpected characters in an operand, unsupported actions.
  Result<Segment> next();

private:
  Result<Action> action(std::size_t open, std::size_t cur);
  Result<Token> field(std::size_t start, std::size_t& cur) const;
  std::string_view trimmed(std::string_view s);

  std::string_view m_text;
  std::size_t m_pos = 0;
  bool m_trim_next = false; // the last action ended with " -}}"
};

} // namespace opm::render::image_ref_lexer
