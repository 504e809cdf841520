#pragma once

#include "util/error.hpp"

#include <string>
#include <string_view>
#include <vector>

// The filter configuration (apiVersion olm.operatorframework.io/v1alpha1, kind
// FilterConfiguration), as upstream's FilterConfiguration design defines it.
namespace opm::filter {

struct ChannelRule {
  std::string name{};
  std::string version_range{}; // empty: every version
  Location where{};            // the configuration file, and the line of its name when known
};

struct PackageRule {
  std::string name{};
  std::string default_channel{};       // empty: keep the catalog's
  std::vector<ChannelRule> channels{}; // empty: every channel
  Location where{};                    // the configuration file, and the line of its name
};

struct Config {
  std::vector<PackageRule> packages{};
};

// Reads a configuration from YAML or JSON text; `file` names it in errors and in each rule's
// location (with the line of the rule's name, found in block-style YAML written in order)
// ("filter.yaml:3: yaml: ...", "filter.yaml: unexpected kind \"Foo\"", every problem of
// the design's Validate joined by "; ").
Result<Config> parse_config(std::string_view text, std::string_view file);

} // namespace opm::filter
