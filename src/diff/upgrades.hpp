#pragma once

#include "catalog/model.hpp"
#include "util/error.hpp"

#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// `opm alpha diff --check-upgrades`: the changes that would leave an installed operator
// without an update.
namespace opm::diff {

enum class Rule {
  upgrade_path,        // a bundle a channel served has no path to the channel's new head
  head_downgrade,      // a channel's head moves to a lower version
  default_channel,     // the default channel goes, or loses the previous default head
  unannounced_removal, // a package or channel goes without an olm.deprecations entry
};

struct RuleInfo {
  Rule rule;
  std::string_view name;
  std::string_view description;
};

// Every rule, in the order they are checked.
std::span<const RuleInfo> rules();
std::string_view rule_name(Rule rule);

// A rule by the name `--allow` takes; fails with the list of names.
Result<Rule> parse_rule(std::string_view name);

struct Violation {
  Rule rule;
  std::string package;
  std::string message;
  Location where; // in NEW; empty when NEW has no place for it
};

// Every violation of a rule not in `allowed`, package by package (by name), rules in order.
std::vector<Violation> check_upgrades(const catalog::model::Model& old_model,
                                      const catalog::model::Model& new_model,
                                      const std::set<Rule>& allowed = {});

} // namespace opm::diff
