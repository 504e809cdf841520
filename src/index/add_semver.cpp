#include "index/detail/add_modes.hpp"
#include "sqlite/bundle_insert.hpp"
#include "sqlite/package_graph.hpp"
#include "util/semver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

namespace opm::index::detail {

namespace {

// The annotations' default channel, else the only or first channel.
std::string select_default_channel(const Input& in) {
  if (!in.default_channel.empty()) {
    return in.default_channel;
  }
  if (in.channels.empty()) {
    return {};
  }
  return *std::min_element(in.channels.begin(), in.channels.end());
}

// Upstream's BundleGraphLoader.AddBundleToGraph.
Result<void> add_to_graph(const Input& in, sqlite::PackageGraph& graph, bool skip_patch) {
  auto version = util::semver::parse(in.row.version);
  if (!version) {
    return util::fail(Errc::invalid, fmt::format("Bundle version {} is not valid", in.row.version));
  }
  sqlite::BundleKey key{in.image, version->to_string(), in.row.name};
  if (!in.default_channel.empty()) {
    graph.default_channel = in.default_channel;
  }
  if (graph.default_channel.empty()) {
    graph.default_channel = select_default_channel(in);
    if (graph.default_channel.empty()) {
      return util::fail(Errc::invalid, "Default channel is missing and can't be inferred");
    }
  }
  for (const auto& name : in.channels) {
    auto it = graph.channels.find(name);
    if (it == graph.channels.end()) {
      graph.channels[name] = sqlite::GraphChannel{key, {{key, {}}}};
      continue;
    }
    auto& channel = it->second;
    std::set<sqlite::BundleKey> replaces;
    std::optional<std::pair<sqlite::BundleKey, util::semver::Version>> lowest_ahead;
    std::optional<std::pair<sqlite::BundleKey, util::semver::Version>> greatest_behind;
    std::vector<sqlite::BundleKey> skip_patch_candidates;
    for (const auto& [node, _] : channel.nodes) {
      auto node_version = util::semver::parse(node.version);
      if (!node_version) {
        return util::fail(Errc::invalid,
                          fmt::format("Unable to parse existing bundle version stored in index {} "
                                      "{} {}",
                                      node.name, node.version, node.path));
      }
      int c = util::semver::compare(*node_version, *version);
      if (c == 0) {
        return util::fail(Errc::invalid,
                          fmt::format("Bundle version {} already added to index", in.row.version));
      }
      if (c > 0 && (!lowest_ahead || *node_version < lowest_ahead->second)) {
        lowest_ahead = {node, *node_version};
      }
      if (c < 0 && (!greatest_behind || *node_version > greatest_behind->second)) {
        greatest_behind = {node, *node_version};
      }
      if (skip_patch && node_version->major == version->major &&
          node_version->minor == version->minor && *version > *node_version) {
        skip_patch_candidates.push_back(node);
        replaces.insert(node);
      }
    }
    if (greatest_behind) {
      replaces.insert(greatest_behind->first);
    }
    if (lowest_ahead) {
      channel.nodes[lowest_ahead->first] = {key};
    } else {
      channel.head = key;
    }
    for (const auto& candidate : skip_patch_candidates) {
      channel.nodes.erase(candidate);
    }
    channel.nodes[key] = std::move(replaces);
  }
  return {};
}

} // namespace

Result<void> load_semver(sqlite::Connection& db, const std::vector<Input>& inputs, bool skip_patch,
                         bool enable_alpha) {
  for (const auto& in : inputs) {
    auto graph = OPM_TRY(sqlite::load_package_graph(db, in.package));
    OPM_TRY(add_to_graph(in, graph, skip_patch));
    auto loaded = sqlite::add_bundle(db, in.row, enable_alpha);
    if (loaded) {
      loaded = sqlite::write_graph(db, graph);
    }
    if (!loaded) {
      return util::fail(Errc::invalid, fmt::format("error loading bundle {} into db: {}",
                                                   in.row.name, loaded.error().message()));
    }
  }
  if (auto cleared = sqlite::clear_non_head_bundles(db); !cleared) {
    return util::fail(Errc::invalid,
                      "Error deleting previous bundles: " + cleared.error().message());
  }
  return {};
}

} // namespace opm::index::detail
