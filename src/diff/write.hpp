#pragma once

#include "diff/diff.hpp"
#include "diff/upgrades.hpp"

#include <optional>
#include <string>
#include <vector>

namespace opm::diff {

// What a diff writer is given: the changes and, with --check-upgrades, the violations.
struct Report {
  const CatalogDiff& diff;
  const std::vector<Violation>* violations = nullptr; // null: upgrades were not checked
};

// "added", "removed" or "changed".
std::string_view status_name(PackageDiff::Status status);

// "image a -> b; properties olm.csv.metadata, olm.bundle.object; related images".
std::string bundle_change_text(const BundleChange& change);

// For a terminal: one block per package, "+" added, "-" removed, "~" changed; coloured with
// ANSI escapes when `colour` is set.
std::string text_report(const Report& report, bool colour);

// For a pull-request comment: a summary table, then a section per package with a mermaid
// graph of each changed channel's added and removed edges.
std::string markdown_report(const Report& report);

// The schema docs/diff.md describes (schemaVersion 1), indented by two spaces.
std::string json_report(const Report& report);

} // namespace opm::diff
