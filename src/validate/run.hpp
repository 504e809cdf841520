#pragma once

#include "util/error.hpp"

#include <ostream>
#include <string>

// `opm validate DIR`: load the catalog, check it, report the outcome.
namespace opm::validate {

enum class ReportFormat {
  text,   // findings on `err`, each as "file:line:col: text", then the failure is returned
  json,   // {"passed": bool, "error": {"message": ...}} on `out`
  yaml,   // the same document as YAML
  github, // one GitHub Actions error annotation per finding on `out`
  sarif,  // a SARIF 2.1.0 log on `out`, one result per finding
  junit,  // JUnit XML on `out`, one test case per package
};

// Loads the catalog in `dir` (first syntax or decoding error wins) and checks every rule.
// text: several findings are written to `err` and the failure returned (a single one
// becomes the returned Error's location). json, yaml: the report is written to `out` and a
// failure comes back as Error::already_reported(Errc::invalid).
// github, sarif, junit: every finding in that format on `out`, the failure as for json.
Result<void> run(const std::string& dir, ReportFormat format, std::ostream& out, std::ostream& err);

} // namespace opm::validate
