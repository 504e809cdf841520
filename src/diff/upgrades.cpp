#include "diff/upgrades.hpp"

#include "diff/diff.hpp"
#include "diff/find.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <optional>

namespace opm::diff {

namespace model = catalog::model;

namespace {

constexpr std::array<RuleInfo, 4> k_rules{{
    {Rule::upgrade_path, "upgrade-path",
     "every bundle a channel served, and its old head, can still upgrade to the channel's head"},
    {Rule::head_downgrade, "head-downgrade", "no channel head moves to a lower version"},
    {Rule::default_channel, "default-channel",
     "the default channel stays, and the new default channel holds or upgrades the previous "
     "default head"},
    {Rule::unannounced_removal, "unannounced-removal",
     "a package or channel is removed only after an olm.deprecations entry announced it"},
}};

// The bundles of a channel that can reach its head by upgrades, found backwards from the
// head. `outsiders` are versions of bundles the channel no longer lists (a removed head),
// which a skipRange may still reach.
class UpgradeGraph {
public:
  UpgradeGraph(const model::Channel& channel,
               const std::map<std::string, util::semver::Version>& outsiders)
      : m_channel(channel) {
    for (const auto& [name, bundle] : channel.bundles) {
      m_versions.emplace(name, bundle.parsed_version);
    }
    for (const auto& [name, version] : outsiders) {
      m_versions.emplace(name, version);
    }
  }

  std::set<std::string> reaching(const std::string& head) const {
    std::set<std::string> seen{head};
    std::deque<std::string> queue{head};
    while (!queue.empty()) {
      std::string name = std::move(queue.front());
      queue.pop_front();
      const auto* bundle = find_in(m_channel.bundles, name);
      if (bundle == nullptr) {
        continue;
      }
      for (const auto& from : predecessors(*bundle)) {
        if (seen.insert(from).second) {
          queue.push_back(from);
        }
      }
    }
    return seen;
  }

private:
  // The bundles `to` upgrades from: what it replaces and skips, and every known bundle whose
  // version is in its skipRange.
  std::vector<std::string> predecessors(const model::Bundle& to) const {
    std::vector<std::string> out;
    if (!to.replaces.empty()) {
      out.push_back(to.replaces);
    }
    out.insert(out.end(), to.skips.begin(), to.skips.end());
    if (to.skip_range.empty()) {
      return out;
    }
    auto range = util::semver::parse_range(to.skip_range);
    if (!range) {
      return out;
    }
    for (const auto& [name, version] : m_versions) {
      if (name != to.name && range->contains(version)) {
        out.push_back(name);
      }
    }
    return out;
  }

  const model::Channel& m_channel;
  std::map<std::string, util::semver::Version> m_versions;
};

class Checker {
public:
  Checker(const std::set<Rule>& allowed, std::vector<Violation>& out)
      : m_allowed(allowed), m_out(out) {}

  void package(const std::string& name, const model::Package* before, const model::Package* after) {
    if (before == nullptr) {
      return;
    }
    if (after == nullptr) {
      if (!before->deprecation.present) {
        add(Rule::unannounced_removal, name,
            fmt::format("package {} is removed without an olm.deprecations entry for it",
                        util::go_quote(name)),
            {});
      }
      return;
    }
    for (const auto& [channel_name, channel] : before->channels) {
      const auto* now = find_in(after->channels, channel_name);
      if (now == nullptr) {
        removed_channel(*before, *after, channel);
        continue;
      }
      upgrade_paths(name, channel, *now);
      head_moves(name, channel, *now);
    }
    default_channel(*before, *after);
  }

private:
  void add(Rule rule, const std::string& package, std::string message, Location where) {
    if (!m_allowed.contains(rule)) {
      m_out.push_back({rule, package, std::move(message), std::move(where)});
    }
  }

  void removed_channel(const model::Package& before, const model::Package& after,
                       const model::Channel& channel) {
    if (channel.deprecation.present || before.deprecation.present) {
      return;
    }
    add(Rule::unannounced_removal, before.name,
        fmt::format("package {}: channel {} is removed without an olm.deprecations entry for it",
                    util::go_quote(before.name), util::go_quote(channel.name)),
        after.where);
  }

  void upgrade_paths(const std::string& package, const model::Channel& before,
                     const model::Channel& after) {
    auto head = model::channel_head(after);
    if (!head) {
      add(Rule::upgrade_path, package,
          fmt::format("package {}: channel {}: upgrades cannot be checked: {}",
                      util::go_quote(package), util::go_quote(after.name), head.error().message()),
          after.where);
      return;
    }
    std::string old_head = head_name(before);
    // Only what could upgrade before counts: a catalog already stranding a bundle is not the
    // change's doing.
    std::set<std::string> reached_before;
    if (!old_head.empty()) {
      reached_before = UpgradeGraph(before, {}).reaching(old_head);
    }
    std::map<std::string, util::semver::Version> outsiders;
    for (const auto& [name, bundle] : before.bundles) {
      if (!after.bundles.contains(name)) {
        outsiders.emplace(name, bundle.parsed_version);
      }
    }
    auto reaching = UpgradeGraph(after, outsiders).reaching((*head)->name);
    for (const auto& [name, bundle] : before.bundles) {
      const auto* still = find_in(after.bundles, name);
      if ((still == nullptr && name != old_head) || reaching.contains(name) ||
          !reached_before.contains(name)) {
        continue;
      }
      add(Rule::upgrade_path, package,
          fmt::format("package {}: channel {}: {} {} has no upgrade path to the channel head {}",
                      util::go_quote(package), util::go_quote(after.name),
                      still ? "bundle" : "previous head", util::go_quote(name),
                      util::go_quote((*head)->name)),
          still ? still->where : after.where);
    }
  }

  void head_moves(const std::string& package, const model::Channel& before,
                  const model::Channel& after) {
    auto old_head = model::channel_head(before);
    auto new_head = model::channel_head(after);
    if (!old_head || !new_head) {
      return;
    }
    const auto& o = **old_head;
    const auto& n = **new_head;
    if (util::semver::compare(n.parsed_version, o.parsed_version) >= 0) {
      return;
    }
    add(Rule::head_downgrade, package,
        fmt::format("package {}: channel {}: head moves from {} ({}) to {} ({}), a lower version",
                    util::go_quote(package), util::go_quote(after.name), util::go_quote(o.name),
                    o.version_string(), util::go_quote(n.name), n.version_string()),
        n.where);
  }

  void default_channel(const model::Package& before, const model::Package& after) {
    const auto* old_default = find_in(before.channels, before.default_channel);
    if (old_default == nullptr) {
      return;
    }
    if (!after.channels.contains(before.default_channel)) {
      add(Rule::default_channel, before.name,
          fmt::format("package {}: default channel {} is removed", util::go_quote(before.name),
                      util::go_quote(before.default_channel)),
          after.where);
      return;
    }
    const auto* new_default = find_in(after.channels, after.default_channel);
    auto old_head = model::channel_head(*old_default);
    if (!old_head || new_default == nullptr || holds_or_upgrades(*new_default, **old_head)) {
      return;
    }
    add(Rule::default_channel, before.name,
        fmt::format("package {}: default channel {} neither contains {}, the head of the previous "
                    "default channel {}, nor upgrades it",
                    util::go_quote(before.name), util::go_quote(after.default_channel),
                    util::go_quote((*old_head)->name), util::go_quote(before.default_channel)),
        after.where);
  }

  // Whether `channel` lists `bundle` or one of its bundles upgrades it to the channel's head.
  static bool holds_or_upgrades(const model::Channel& channel, const model::Bundle& bundle) {
    if (channel.bundles.contains(bundle.name)) {
      return true;
    }
    auto head = model::channel_head(channel);
    if (!head) {
      return false;
    }
    return UpgradeGraph(channel, {{bundle.name, bundle.parsed_version}})
        .reaching((*head)->name)
        .contains(bundle.name);
  }

  const std::set<Rule>& m_allowed;
  std::vector<Violation>& m_out;
};

} // namespace

std::span<const RuleInfo> rules() { return k_rules; }

std::string_view rule_name(Rule rule) {
  for (const auto& info : k_rules) {
    if (info.rule == rule) {
      return info.name;
    }
  }
  return "";
}

Result<Rule> parse_rule(std::string_view name) {
  std::vector<std::string> names;
  for (const auto& info : k_rules) {
    if (info.name == name) {
      return info.rule;
    }
    names.emplace_back(info.name);
  }
  return util::fail(Errc::usage, fmt::format("unknown rule {}, expected one of: {}",
                                             util::go_quote(name), util::join(names, ", ")));
}

std::vector<Violation> check_upgrades(const model::Model& old_model, const model::Model& new_model,
                                      const std::set<Rule>& allowed) {
  std::vector<Violation> out;
  Checker checker(allowed, out);
  for (const auto& [name, package] : old_model.packages) {
    std::size_t first = out.size();
    checker.package(name, &package, find_in(new_model.packages, name));
    std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                     [](const Violation& a, const Violation& b) { return a.rule < b.rule; });
  }
  return out;
}

} // namespace opm::diff
