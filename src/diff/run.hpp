#pragma once

#include "catalog/declcfg.hpp"
#include "diff/upgrades.hpp"
#include "util/error.hpp"

#include <set>
#include <string>

namespace opm::diff {

enum class Format { text, markdown, json, github, sarif, junit };

// "text", "markdown", "json", "github", "sarif", "junit"; a usage error otherwise.
Result<Format> parse_format(std::string_view name);

struct Options {
  Format format = Format::text;
  bool colour = false; // text only
  bool check_upgrades = false;
  std::set<Rule> allowed;
  // False when NEW is not files on disk (an image, a database): its objects' locations name
  // nothing a reader can open, so violations carry none.
  bool locate_new = true;
};

struct Outcome {
  std::string output; // the whole report; empty for unchanged catalogs (text, json, markdown)
  std::size_t violations{0}; // with check_upgrades
};

// Compares two rendered catalogs. Either failing to convert to the package model fails,
// wrapped with `old_name` or `new_name`. github, sarif and junit report the upgrade check
// only, so they need check_upgrades (a usage error otherwise).
Result<Outcome> run(const catalog::DeclarativeConfig& old_cfg, const std::string& old_name,
                    const catalog::DeclarativeConfig& new_cfg, const std::string& new_name,
                    const Options& options);

} // namespace opm::diff
