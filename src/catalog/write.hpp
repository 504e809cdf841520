#pragma once

#include "catalog/declcfg.hpp"
#include "json/value.hpp"

#include <ostream>
#include <string>

// The JSON and YAML writers of upstream opm, byte for byte (catalog-format.md §4).
namespace opm::catalog {

enum class Format { json, yaml };

// Writes the whole config in upstream's stream order (§4.2): per package, sorted
// by name, its package, channels, bundles, others and deprecations; then the
// package-less others. Objects with an empty package are dropped.
void write(const DeclarativeConfig& cfg, Format format, std::ostream& out);

} // namespace opm::catalog
