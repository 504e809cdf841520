#pragma once

#include "json/value.hpp"
#include "util/error.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

// Reading one bundle file the way Kubernetes' YAMLOrJSONDecoder(reader, 30) does, which is
// how upstream reads every file of manifests/ and metadata/: only the first document counts.
namespace opm::bundle {

enum class Syntax { json, yaml };

struct FirstDocument {
  Json value;            // any JSON value; numbers keep integer/float typing
  Syntax syntax;         // yaml: scalars may be coerced to strings for string fields
  std::string_view text; // json: the value's text as read (for raw members); else empty
};

// JSON when the first non-space character within the first 30 bytes is '{' and the value
// there parses; otherwise (also as a fallback) the first YAML document of the "---"
// separated stream. Fails when neither yields a document (an empty file, bad YAML, a bad
// separator line). `content` must outlive the result.
Result<FirstDocument> read_first_document(std::string_view content);

// Upstream decodes into a typed target and, when decoding the JSON document into it fails,
// reads the same content again as YAML (whose scalars may then be coerced to strings).
// `decode(const FirstDocument&) -> Result<T>` is tried on the JSON reading first, then on
// the YAML one; the first error is reported when both fail.
template <typename Decode>
auto decode_first_document(std::string_view content, Decode&& decode)
    -> decltype(decode(std::declval<const FirstDocument&>()));

// The two readings used above.
std::optional<FirstDocument> read_json_document(std::string_view content);
Result<FirstDocument> read_yaml_document(std::string_view content, bool after_json);

template <typename Decode>
auto decode_first_document(std::string_view content, Decode&& decode)
    -> decltype(decode(std::declval<const FirstDocument&>())) {
  auto json = read_json_document(content);
  if (!json) {
    auto yaml = OPM_TRY(read_yaml_document(content, false));
    return decode(yaml);
  }
  auto first = decode(*json);
  if (first) {
    return first;
  }
  auto yaml = read_yaml_document(content, true);
  if (!yaml) {
    return first;
  }
  auto second = decode(*yaml);
  if (second) {
    return second;
  }
  return first;
}

} // namespace opm::bundle
