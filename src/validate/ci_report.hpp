#pragma once

#include "util/error.hpp"

#include <span>
#include <string>
#include <vector>

// Findings in the formats CI systems show: GitHub Actions workflow commands, SARIF 2.1.0 and
// JUnit XML. `opm validate -o ...` and `opm alpha diff --check-upgrades -o ...` write them.
namespace opm::validate {

enum class CiFormat { github, sarif, junit };

// One problem: the rule it breaks, a one-line message (may hold newlines; each format keeps
// them), where it is (empty: nowhere in particular) and the package it is about ("" for the
// catalog as a whole).
struct CiFinding {
  std::string rule;
  std::string message;
  Location where;
  std::string package;
};

struct CiRule {
  std::string id;
  std::string description;
};

struct CiReport {
  std::string command;               // "validate", "alpha diff": the JUnit suite and the title
  std::vector<CiRule> rules;         // every rule a finding may name (SARIF's rule list)
  std::vector<std::string> packages; // JUnit: one test case each, passing or not
  std::vector<CiFinding> findings;
};

// The whole report as text, ending in a newline (github: nothing when there are no findings).
std::string ci_report_text(CiFormat format, const CiReport& report);

} // namespace opm::validate
