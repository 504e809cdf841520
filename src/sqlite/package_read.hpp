#pragma once

#include "util/error.hpp"

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

// What an index database stores of a package: the reads index add, rm and export build on.
namespace opm::sqlite {

class Connection;

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

// Whether the bundle is marked deprecated.
Result<bool> bundle_deprecated(Connection& db, const std::string& name);

// Every package name; a NULL name is left out, as upstream's ListPackages does.
Result<std::vector<std::string>> package_names(Connection& db);

// A package's channel names, and each with its head bundle.
Result<std::vector<std::string>> package_channels(Connection& db, const std::string& package);
Result<std::vector<std::pair<std::string, std::string>>> channel_heads(Connection& db,
                                                                       const std::string& package);

// A package's default channel; nullopt when the package is missing or has none.
Result<std::optional<std::string>> default_channel(Connection& db, const std::string& package);

// Whether the channel has an entry for the bundle, and whether an entry there replaces it.
Result<bool> channel_has_bundle(Connection& db, const std::string& package,
                                const std::string& channel, const std::string& bundle);
Result<bool> replaced_in_channel(Connection& db, const std::string& package,
                                 const std::string& channel, const std::string& bundle);

// The images of a package's bundles with channel entries; nullopt when one has none.
Result<std::optional<std::vector<std::string>>> package_bundle_paths(Connection& db,
                                                                     const std::string& package);

// A package's bundles with channel entries: name, image and version, in row order.
struct BundleImage {
  std::string name, image, version;
};
Result<std::vector<BundleImage>> package_bundle_images(Connection& db, const std::string& package);

// The image of the bundle named `bundle`; nullopt when there is no such bundle.
Result<std::optional<std::string>> bundle_image(Connection& db, const std::string& bundle);

// The images of every bundle with a channel entry.
Result<std::set<std::string>> served_bundle_images(Connection& db);

} // namespace opm::sqlite
