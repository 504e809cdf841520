#pragma once

#include "util/error.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

// Writing bundles and package graphs into an index database, as upstream v1.26.5's
// sqlLoader does (pkg/sqlite/load.go). Each call is one transaction.
namespace opm::sqlite {

class Connection;

struct TypedValue {
  std::string type;
  std::string value; // JSON text as stored
  auto operator<=>(const TypedValue&) const = default;
};

struct ApiRow {
  std::string group, version, kind, plural;
  auto operator<=>(const ApiRow&) const = default;
};

// One bundle as the operatorbundle row and its satellite rows store it.
struct NewBundle {
  std::string name;
  std::string image; // bundlepath; "" for none
  std::string version;
  std::string skip_range;
  std::string replaces;
  std::vector<std::string> skips;
  std::string substitutes_for;
  std::string csv_json;                 // the CSV object's Go JSON text
  std::vector<std::string> object_json; // every manifest object, in file order
  std::set<std::string> images;         // related images, the bundle image included
  std::vector<TypedValue> dependencies; // the dependencies file, in order
  std::set<TypedValue> properties;      // values already in stored form
  std::set<ApiRow> provided;
  std::set<ApiRow> required;
};

// Insert the bundle's rows (operatorbundle, related_image, dependencies with one olm.gvk row
// per required API, properties, api, api_provider, api_requirer) in one transaction. Errors
// keep upstream's texts, e.g. `failed to add bundle "x": UNIQUE constraint failed:
// operatorbundle.name`, `SubstitutesFor is an alpha-only feature. ...`.
Result<void> add_bundle(Connection& db, const NewBundle& bundle, bool enable_alpha = false);

struct ChannelHead {
  std::string channel;
  std::string head;
};

struct PackageManifest {
  std::string package;
  std::string default_channel;
  std::vector<ChannelHead> channels; // in the order their entries are written
};

// Replace the package's package, channel and channel_entry rows by the graph reachable from
// each channel head along replaces and skips, in one transaction. The graph errors are
// collected (`Invalid bundle <head>, replaces nonexistent bundle <b>`, `Cycle detected, ...`,
// `no default channel specified for <p>`) and the whole change is rolled back when any occurs.
Result<void> rebuild_package(Connection& db, const PackageManifest& manifest);

// What is already stored of a package: its bundles with a channel entry, their versions and
// channels, and its default channel.
struct StoredBundle {
  std::string name;
  std::string version;
  std::string image;
  std::vector<std::string> channels;
};
struct StoredPackage {
  std::string default_channel;
  std::vector<StoredBundle> bundles;
};
Result<StoredPackage> stored_package(Connection& db, const std::string& package);

// The package each of `names` belongs to on the index (via its channel entries); names
// without entries are left out.
Result<std::vector<std::pair<std::string, std::string>>>
packages_of_bundles(Connection& db, const std::set<std::string>& names);

// A package's channel entries with the bundles they name and replace (name, version, path of
// each; empty where a row is missing), in entry order; and the bundles that have entries.
struct BundleKey {
  std::string path, version, name;
  auto operator<=>(const BundleKey&) const = default;
};
struct EntryEdge {
  std::string channel;
  BundleKey bundle;
  BundleKey replaces;
};
Result<std::vector<EntryEdge>> package_entries(Connection& db, const std::string& package);
Result<std::set<BundleKey>> package_bundle_keys(Connection& db, const std::string& package);

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

// Write `graph` in one transaction: the package and each channel with its head (INSERT OR
// REPLACE), the default channel, then every channel's entries walked from its head. Errors
// are collected and the transaction is committed anyway, as upstream does; the collected
// error is returned afterwards.
Result<void> write_graph(Connection& db, const PackageGraph& graph);

// Drop the csv and bundle text of every bundle with an image that heads no channel.
Result<void> clear_non_head_bundles(Connection& db);

// --overwrite-latest: make way for a new copy of `bundle`, which nothing may replace. Each
// channel holding it gets the bundle it replaced as head (or, in the default channel, none),
// then the bundle's rows and its deprecation are deleted. One transaction.
Result<void> remove_overwritten_head(Connection& db, const std::string& package,
                                     const std::string& bundle);

// Go's json.Compact with HTML escaping, as json.Marshal stores a json.RawMessage:
// whitespace dropped, <, >, &, U+2028 and U+2029 escaped.
std::string marshal_raw(std::string_view json_text);

} // namespace opm::sqlite
