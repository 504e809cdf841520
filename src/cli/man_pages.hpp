#pragma once

#include "cli/meta.hpp"

#include <string>
#include <vector>

// Manual pages (roff, section 1) generated from the command tree: one per visible
// command, named after its path ("opm-generate-dockerfile.1").
namespace opm::cli {

struct ManPage {
  std::string file_name;
  std::string text;
};

std::vector<ManPage> man_pages(const CLI::App& root, const CommandMeta& meta);

} // namespace opm::cli
