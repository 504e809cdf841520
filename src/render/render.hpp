#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <string>
#include <vector>

namespace opm::render {

struct Options {
  // Image references are resolved by this, when set; otherwise they are refused.
  std::function<Result<catalog::DeclarativeConfig>(const std::string& ref)> render_image;
};

// `opm render`: each reference in order (an FBC directory; bundle directories and images
// through later readers), post-processed as upstream does (bundle objects and csv metadata
// moved last, related images sorted by image), then concatenated.
// Errors are wrapped `render reference "<ref>": ...`.
Result<catalog::DeclarativeConfig> render(const std::vector<std::string>& refs,
                                          const Options& options = {});

// Upstream's per-reference tidy-up before writing (catalog-format.md §4.1).
void normalize_for_output(catalog::DeclarativeConfig& cfg);

} // namespace opm::render
