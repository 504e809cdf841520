#pragma once

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

// Cutting a YAML stream into documents the way k8s.io/apimachinery's YAMLReader does it
// for upstream's loader. Internal to catalog/.
namespace opm::yaml {

// One document: whole lines of the stream. Its text as the YAML parser sees it is every
// line with its "\n" or "\r\n" ending replaced by "\n" (a last line without one gets one).
struct Chunk {
  std::size_t begin = 0; // byte range of its lines in the stream
  std::size_t end = 0;
  std::size_t line = 1;         // 1-based line of `begin` in the stream
  bool crlf = false;            // some line ends with "\r\n"
  bool unterminated = false;    // the last line has no "\n"
  std::size_t longest_line = 0; // in bytes, without its line break

  // The text the YAML parser gets, when it is not the stream's bytes as they are.
  [[nodiscard]] bool needs_copy() const { return crlf || unterminated; }
  [[nodiscard]] std::string text(std::string_view stream) const;
};

struct SplitError {
  std::string message;  // "invalid Yaml document separator: <rest of line>"
  std::size_t line = 0; // 1-based line in the stream
};

// Lines starting with "---" separate documents; after "---" only space or a comment may
// follow. A separator line is kept as the first line of a document that has no lines
// yet (so "---\n---\n" makes a document holding just "---"). A document may hold nothing
// but blank or comment lines.
class Splitter {
public:
  // Start reading at byte `pos` of `stream`, which is on 1-based line `line`.
  Splitter(std::string_view stream, std::size_t pos = 0, std::size_t line = 1)
      : m_stream(stream), m_pos(pos), m_line(line) {}

  // The next document; nullopt at the end of the stream.
  std::expected<std::optional<Chunk>, SplitError> next();

private:
  std::string_view m_stream;
  std::size_t m_pos;
  std::size_t m_line;
};

} // namespace opm::yaml
