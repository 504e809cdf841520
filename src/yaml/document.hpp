#pragma once

#include "json/value.hpp"

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

// One YAML document to a JSON value, as sigs.k8s.io/yaml's YAMLToJSON does it on top of
// go-yaml v2, driven by libyaml's event parser. Internal to catalog/.
namespace opm::yaml {

// What to do with text after the first document: go-yaml ignores it; catalog files
// refuse it, so that nothing in a file is dropped without a word.
enum class Rest { ignore, reject };

struct DocumentError {
  // Upstream's text, e.g. "yaml: line 3: mapping values are not allowed in this context",
  // "json: unsupported value: NaN", "unsupported map key of type: ...".
  std::string message;
  bool located = false;   // whether line/column below are known
  std::size_t line = 0;   // 0-based, in the document text
  std::size_t column = 0; // 0-based, in characters
};

// Convert the first document of `text` (later ones are ignored, as go-yaml does), read as
// if a "\n" followed it when `append_newline`. An empty document gives null. Numbers keep
// YAML's typing: int64, uint64 (beyond int64) or double.
// `longest_line` (bytes), when known, lets short-lined documents skip looking for long one-line
// values.
// `may_be_deep`, when given, tells whether the value may nest deeper than 10000 levels.
// With Rest::reject, anything after the first document fails with libyaml's message for it
// (e.g. "yaml: line 2: did not find expected <document start>") or "yaml: line N: content
// after the end of the document".
std::expected<Json, DocumentError> document_to_json(std::string_view text,
                                                    bool append_newline = false,
                                                    std::size_t longest_line = SIZE_MAX,
                                                    bool* may_be_deep = nullptr,
                                                    Rest rest = Rest::ignore);

} // namespace opm::yaml
