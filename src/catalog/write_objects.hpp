#pragma once

#include "catalog/declcfg.hpp"
#include "catalog/json.hpp"
#include "catalog/json_writer.hpp"
#include "catalog/yaml_emitter.hpp"

// One declarative config object at a time, as upstream's encoders write them: JSON in the
// Go field order with its omission rules (catalog-format.md §2.1), YAML as sigs.k8s.io/yaml
// makes it from that JSON (keys in natural order).
namespace opm::catalog {

void write_json(JsonWriter& w, const Package& p);
void write_json(JsonWriter& w, const Channel& c);
void write_json(JsonWriter& w, const Bundle& b);
void write_json(JsonWriter& w, const Deprecation& d);
void write_json(JsonWriter& w, const Meta& m);

// Each writes one node; the caller opens and closes the document.
void write_yaml(YamlEmitter& e, const Package& p);
void write_yaml(YamlEmitter& e, const Channel& c);
void write_yaml(YamlEmitter& e, const Bundle& b);
void write_yaml(YamlEmitter& e, const Deprecation& d);
void write_yaml(YamlEmitter& e, const Meta& m);
void write_yaml(YamlEmitter& e, const Json& v);

// Standard base64 with padding, as Go encodes a []byte.
void append_base64(std::string& out, std::string_view data);

} // namespace opm::catalog
