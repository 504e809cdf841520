#pragma once

#include "catalog/model.hpp"
#include "util/error.hpp"

#include <string>
#include <vector>

// `opm alpha diff`: what changed between two catalogs, package by package.
namespace opm::diff {

// An upgrade edge as a channel entry declares it: `bundle` replaces or skips `target` (a
// bundle name), or its skipRange is `target` (a version range).
struct Edge {
  enum class Kind { replaces, skips, skip_range };
  std::string bundle;
  Kind kind = Kind::replaces;
  std::string target;

  auto operator<=>(const Edge&) const = default;
};

std::string_view kind_name(Edge::Kind kind); // "replaces", "skips", "skipRange"

struct ChannelDiff {
  std::string name;
  std::string old_head; // "" when the channel has no single head (or did not exist)
  std::string new_head;
  std::vector<std::string> entries_added;
  std::vector<std::string> entries_removed;
  std::vector<Edge> edges_added;
  std::vector<Edge> edges_removed;
  Location where; // the channel in NEW (empty when none or not a file)

  [[nodiscard]] bool empty() const;
};

struct BundleChange {
  std::string name;
  std::string old_image; // equal to new_image when the image did not change
  std::string new_image;
  std::vector<std::string> property_types; // the types whose values differ, sorted
  bool related_images_changed = false;
  Location where;
};

// A deprecation entry: what it is about ("package", "channel stable", "bundle foo.v1") and
// its message.
struct DeprecationChange {
  std::string subject;
  std::string message;
};

struct PackageDiff {
  enum class Status { added, removed, changed };
  std::string name;
  Status status = Status::changed;
  std::string old_default_channel;
  std::string new_default_channel;
  std::vector<std::string> channels_added;
  std::vector<std::string> channels_removed;
  std::vector<std::string> bundles_added;
  std::vector<std::string> bundles_removed;
  std::vector<BundleChange> bundles_changed;
  // Every channel of NEW that changed, by name (added ones included, so that their heads and
  // edges are listed).
  std::vector<ChannelDiff> channels;
  std::vector<DeprecationChange> deprecations_added;
  std::vector<DeprecationChange> deprecations_removed;
  Location where; // the olm.package in NEW
};

struct CatalogDiff {
  std::vector<PackageDiff> packages; // only packages that changed, by name

  [[nodiscard]] bool empty() const { return packages.empty(); }
};

// The differences between two catalogs' models. Locations come from `new_model`.
CatalogDiff compare(const catalog::model::Model& old_model, const catalog::model::Model& new_model);

// The head of a channel, or "" when it has none or several.
std::string head_name(const catalog::model::Channel& channel);

} // namespace opm::diff
