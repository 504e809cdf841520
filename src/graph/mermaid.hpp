#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <ostream>
#include <string>

// The mermaid upgrade-graph writer of `opm alpha render-graph`.
namespace opm::graph {

struct MermaidOptions {
  // A bundle name: only edges at or above its version, only its package. Empty: all.
  std::string minimum_edge = {};
  // Only this package. Empty: all.
  std::string package_name = {};
  // Mark OLMv0 skip semantics (skipped nodes and links).
  bool draw_v0_semantics = false;
};

// Writes the channels of `cfg` as a mermaid flowchart. Invalid skipRanges are reported
// on `warnings` and skipped. Fails (writing nothing) when a bundle has no single
// olm.package property or an invalid version, or the minimum edge is unknown.
Result<void> write_mermaid(const catalog::DeclarativeConfig& cfg, const MermaidOptions& options,
                           std::ostream& out, std::ostream& warnings);

} // namespace opm::graph
