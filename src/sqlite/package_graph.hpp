#pragma once

#include "sqlite/package_read.hpp"
#include "util/error.hpp"

#include <map>
#include <set>
#include <string>

// A package's upgrade graph as the semver modes of index add keep it (upstream v1.26.5's
// SQLGraphLoader and its graph writer).
namespace opm::sqlite {

class Connection;

// A package graph as semver modes keep it: per channel a head and, per node, the bundles it
// replaces (keys that are not nodes become synthetic skip entries).
struct GraphChannel {
  BundleKey head;
  std::map<BundleKey, std::set<BundleKey>> nodes;
};
struct PackageGraph {
  std::string name;
  std::string default_channel;
  std::map<std::string, GraphChannel> channels;
};

// The stored graph of a package's channels (upstream's SQLGraphLoader): nodes are the entries
// naming stored bundles, edges their replaces (synthetic skip entries included); the head is
// the one node nothing replaces. "package not in database" when it has no bundles.
Result<std::map<std::string, GraphChannel>> load_channel_graphs(Connection& db,
                                                                const std::string& package);

// The whole stored graph of a package (upstream's SQLGraphLoader.Generate); empty when the
// package or its default channel is missing.
Result<PackageGraph> load_package_graph(Connection& db, const std::string& package);

// Write `graph` in one transaction: the package and each channel with its head (INSERT OR
// REPLACE), the default channel, then every channel's entries walked from its head. Errors
// are collected and the transaction is committed anyway, as upstream does; the collected
// error is returned afterwards.
Result<void> write_graph(Connection& db, const PackageGraph& graph);

// Drop the csv and bundle text of every bundle with an image that heads no channel.
Result<void> clear_non_head_bundles(Connection& db);

} // namespace opm::sqlite
