#pragma once

#include "catalog/declcfg.hpp"
#include "json/value.hpp"
#include "json/writer.hpp"
#include "yaml/emitter.hpp"

// One declarative config object at a time, as upstream's encoders write them: JSON in the
// Go field order with its omitempty rules (alpha/declcfg/declcfg.go), YAML as sigs.k8s.io/yaml
// makes it from that JSON (keys in natural order).
namespace opm::catalog {

void write_json(json::Writer& w, const Package& p);
void write_json(json::Writer& w, const Channel& c);
void write_json(json::Writer& w, const Bundle& b);
void write_json(json::Writer& w, const Deprecation& d);
void write_json(json::Writer& w, const Meta& m);

// Each writes one node; the caller opens and closes the document.
void write_yaml(yaml::Emitter& e, const Package& p);
void write_yaml(yaml::Emitter& e, const Channel& c);
void write_yaml(yaml::Emitter& e, const Bundle& b);
void write_yaml(yaml::Emitter& e, const Deprecation& d);
void write_yaml(yaml::Emitter& e, const Meta& m);

} // namespace opm::catalog
