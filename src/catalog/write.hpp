#pragma once

#include "catalog/declcfg.hpp"
#include "catalog/json.hpp"

#include <ostream>
#include <string>

// The JSON and YAML writers of upstream opm, byte for byte (catalog-format.md §4).
namespace opm::catalog {

enum class Format { json, yaml };

// Writes the whole config in upstream's stream order (§4.2): per package, sorted
// by name, its package, channels, bundles, others and deprecations; then the
// package-less others. Objects with an empty package are dropped.
void write(const DeclarativeConfig& cfg, Format format, std::ostream& out);

struct JsonStyle {
  int indent = 0;           // 0 = compact
  bool escape_html = false; // <, >, & as \u003c \u003e \u0026 (Go's default encoder)
};
// Go encoding/json text of a value (shortest float64 formatting, Go string escaping).
void append_json(std::string& out, const Json& v, JsonStyle style = {});
std::string to_json(const Json& v, JsonStyle style = {});

// The YAML form of `v` as sigs.k8s.io/yaml (go-yaml v2) writes it: block style, natural
// key order, no leading "---". `v` is what Go would marshal to JSON first.
void append_yaml(std::string& out, const Json& v);

} // namespace opm::catalog
