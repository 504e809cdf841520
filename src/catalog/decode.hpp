#pragma once

#include "json/value.hpp"
#include "util/error.hpp"

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

// Turning bytes into JSON values the way upstream does (alpha/declcfg/load.go):
// go-yaml v2 (YAML 1.1) resolution, sigs.k8s.io/yaml conversion, Go encoding/json
// streams, and upstream's exact error texts. libyaml is used only in here.
namespace opm::catalog {

struct Document {
  Json value;
  std::size_t line = 1;     // 1-based line in the file where the document starts
  bool has_integers = true; // false when the decoder made no integer in it
};

// One catalog file: a JSON stream when the first non-space byte of the first 4096 is '{',
// else a YAML stream split on "---" lines (with latest's JSON-then-YAML fallback).
// Returns the documents in order. Every document must be a JSON object after conversion;
// numbers keep YAML's typing (int / uint / float). On failure the Error carries upstream's
// message text and a Location{file = name, line, column} pointing into this file.
// A document that is empty or null fails here with the text upstream gives when it finds
// no schema in it: "object '' is missing root schema field" for YAML, and "object
// 'null\n' is missing root schema field" for a JSON null. Objects without a schema are the
// caller's to report. Line numbers in YAML messages count from the document's first line,
// as upstream's do; the Location has the line in the file.
Result<std::vector<Document>> decode_stream(std::string_view text, std::string_view name);

// The same, keeping the documents read before the first failure. Upstream handles each
// document as soon as it is read, so a problem in an earlier document (found by the caller)
// must be reported before a decoding error further down the file.
struct DecodedStream {
  std::vector<Document> documents;
  std::optional<Error> error; // set when decoding stopped early
};
DecodedStream decode_stream_until_error(std::string_view text, std::string_view name);

// The same, each document handed to `take` as soon as it is read, so that only one is held
// at a time; reading stops where `take` returns false. The decoding error that ended the
// stream early, if any, is returned.
using DocumentSink = std::function<bool(Document&&)>;
std::optional<Error> decode_stream_each(std::string_view text, std::string_view name,
                                        const DocumentSink& take);

// The same stream read into values of any type (Go: a json.RawMessage per document), so an
// array, a string or null is a document rather than an error.
DecodedStream decode_values_until_error(std::string_view text, std::string_view name);

// apimachinery's IsJSONBuffer over the first `peek` bytes: after Unicode space, a '{'.
// Its YAML-or-JSON decoders peek 4096 bytes of a catalog file, 30 of a bundle manifest.
bool looks_like_json(std::string_view text, std::size_t peek);

// sigs.k8s.io/yaml.ToJSON of one YAML (or JSON) document, returning the value (any type).
// Used for bundle objects and bundle manifests. Error text: "yaml: line N: ..." etc.
Result<Json> yaml_to_json(std::string_view text);

} // namespace opm::catalog
