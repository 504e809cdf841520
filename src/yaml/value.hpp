#pragma once

#include "json/value.hpp"
#include "yaml/emitter.hpp"

#include <string>

// JSON values written as YAML the way sigs.k8s.io/yaml (go-yaml v2) writes what Go would
// marshal to JSON first: block style, keys in natural order, floats as their JSON text reads
// back in YAML.
namespace opm::yaml {

// One node; the caller opens and closes the document.
void write_value(Emitter& e, const Json& v);

// A whole document of `v`, without a leading "---".
void append(std::string& out, const Json& v);

} // namespace opm::yaml
