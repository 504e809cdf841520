#pragma once

#include "catalog/declcfg.hpp"
#include "filter/version_range.hpp"
#include "util/error.hpp"
#include "util/semver.hpp"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

// One channel's upgrade graph (replaces and skips edges between its entries), as the
// FilterConfiguration design walks it to cut a channel to a version range.
namespace opm::filter {

using Versions = std::map<std::string, util::semver::Version, std::less<>>;

class ChannelGraph {
public:
  // Fails with "no channel heads found", "multiple channel heads found: [a b]",
  // "duplicate channel entry \"x\"" or "detected a cycle in the upgrade graph of the
  // channel".
  static Result<ChannelGraph> build(const catalog::Channel& channel);

  [[nodiscard]] const std::string& head() const { return m_head; }

  // The entries to keep for `range`: from a new head down the replaces chain to the first
  // bundle below which nothing is in range, and the in-range bundles those skip. The new
  // head is the lowest bundle on the chain that still reaches every in-range bundle the
  // chain reaches. `outside` is told about chain bundles kept although out of range.
  [[nodiscard]] std::set<std::string> keep_in_range(
      const VersionRange& range, const Versions& versions,
      const std::function<void(const std::string& bundle, const util::semver::Version* v)>& outside)
      const;

private:
  struct Node {
    std::string replaces;
    std::vector<std::string> skips;
  };
  std::map<std::string, Node, std::less<>> m_nodes;
  std::string m_head;

  [[nodiscard]] std::vector<std::string> replaces_chain() const;
};

} // namespace opm::filter
