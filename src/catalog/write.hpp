#pragma once

#include "catalog/declcfg.hpp"
#include "json/value.hpp"

#include <ostream>
#include <string>

// The JSON and YAML writers of upstream opm (alpha/declcfg/write.go), byte for byte.
namespace opm::catalog {

enum class Format { json, yaml };

// Writes the whole config in upstream's stream order (WriteJSON/WriteYAML): per package, sorted
// by name, its package, channels, bundles, others and deprecations; then the
// package-less others. Objects with an empty package are dropped.
void write(const DeclarativeConfig& cfg, Format format, std::ostream& out);

} // namespace opm::catalog
