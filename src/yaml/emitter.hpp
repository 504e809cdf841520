#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace opm::yaml {

// Writes block-style YAML byte for byte as go-yaml v2's emitter does (indent 2, line
// width 80, unicode on) for the events sigs.k8s.io/yaml produces when it converts JSON:
// the scalar style go-yaml requests for each value, then the emitter's own downgrades,
// folding of long lines, literal blocks, escapes and simple/complex keys.
//
// The caller drives it like an event stream: begin_document(), one node, end_document().
// A node is a scalar (string() or plain()), an empty collection, or begin_mapping() with
// key()/node pairs (keys already in the order to write) and end_mapping(), or
// begin_sequence() with item()/node pairs and end_sequence(). Text may be any bytes:
// invalid UTF-8 is written as U+FFFD, as Go's JSON step would have made it.
class Emitter {
public:
  explicit Emitter(std::string& out) : m_out(out) {}

  void begin_document();
  void end_document();

  void begin_mapping(); // at least one key follows
  void end_mapping();
  void begin_sequence(); // at least one item follows
  void end_sequence();
  void empty_mapping();  // {}
  void empty_sequence(); // []

  void key(std::string_view text);
  void item();

  // A string value: plain when it reads back as the same string, double-quoted when it
  // would read as another type, a literal block when it has a line feed; then adjusted to
  // what the content allows.
  void string(std::string_view text);
  // A value go-yaml requests plain: null, true, false, numbers.
  void plain(std::string_view text);

  enum class Style { plain, single_quoted, double_quoted, literal };

  // What the emitter's analysis of a scalar allows (yaml_emitter_analyze_scalar).
  struct Analysis {
    bool multiline = false;
    bool plain_allowed = true;
    bool single_quoted_allowed = true;
    bool block_allowed = false;
    bool has_space = false;
    bool has_next_line = false; // U+0085
    bool invalid_utf8 = false;
    std::size_t chars = 0; // code points
  };
  static Analysis analyze(std::string_view text);

  // The string go-yaml reads back from a JSON string literal holding `text`. Go's JSON
  // encoder leaves U+0085 (NEL) unescaped, and in a double-quoted YAML scalar a raw NEL is
  // a line break that gets folded: with the spaces around it, one NEL becomes a space and
  // each further one a line feed ("a \u0085 b" reads as "a b").
  static std::string fold_next_lines(std::string_view text);

private:
  // `text` as written: invalid UTF-8 replaced and, for values only, next-line characters
  // folded as upstream's conversion folds them. Keys keep them (written escaped), since
  // upstream fails on such keys and a folded key would sort elsewhere when read back.
  enum class NextLines { fold, keep };
  std::string_view prepare(std::string_view text, Analysis& info, std::string& storage,
                           NextLines next_lines);
  void scalar(std::string_view text, const Analysis& info, Style requested, bool simple_key);
  void write_plain(std::string_view text, const Analysis& info, bool allow_breaks);
  void write_single_quoted(std::string_view text, bool allow_breaks);
  void write_double_quoted(std::string_view text, bool allow_breaks);
  void write_literal(std::string_view text);
  void write_block_hints(std::string_view text);

  void write_indent();
  void write_indicator(std::string_view indicator, bool need_whitespace, bool is_whitespace,
                       bool is_indention);
  void put(char c);
  void put_break();
  void write_char(std::string_view text, std::size_t& i);
  void write_break(std::string_view text, std::size_t& i);
  // Writes the characters from `i` up to the next line break (or space, with
  // `stop_at_space`) and returns where it stopped.
  std::size_t write_run(std::string_view text, std::size_t i, bool stop_at_space);

  std::string& m_out;
  std::vector<int> m_indents;
  int m_indent = -1;
  std::size_t m_column = 0;
  bool m_whitespace = true;
  bool m_indention = true;
  bool m_mapping_context = false; // the next node is a mapping key's value
};

} // namespace opm::yaml
