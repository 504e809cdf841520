#pragma once

#include "json/value.hpp"
#include "util/error.hpp"

#include <optional>
#include <string>
#include <vector>

// The file-based catalog objects as upstream's alpha/declcfg types define them.
// Every object remembers where it was read (`where`), so that a problem found
// later can still name its file and line.
namespace opm::catalog {

inline constexpr std::string_view k_schema_package = "olm.package";
inline constexpr std::string_view k_schema_channel = "olm.channel";
inline constexpr std::string_view k_schema_bundle = "olm.bundle";
inline constexpr std::string_view k_schema_deprecations = "olm.deprecations";

inline constexpr std::string_view k_prop_package = "olm.package";
inline constexpr std::string_view k_prop_gvk = "olm.gvk";
inline constexpr std::string_view k_prop_package_required = "olm.package.required";
inline constexpr std::string_view k_prop_gvk_required = "olm.gvk.required";
inline constexpr std::string_view k_prop_bundle_object = "olm.bundle.object";
inline constexpr std::string_view k_prop_csv_metadata = "olm.csv.metadata";
inline constexpr std::string_view k_prop_channel = "olm.channel";

struct Property {
  std::string type;
  Json value; // as stored; written back as is
  // When not empty: the compact JSON text of `value` exactly as upstream keeps it (a
  // json.RawMessage: member order, number spelling and escapes as produced), set where that
  // differs from what `value` would print (bundle properties, olm.csv.metadata). The JSON
  // writer prints this text (laid out) instead of `value`; the YAML writer uses `value`.
  std::string raw = {};
};

struct Icon {
  std::optional<std::string> data; // decoded bytes; nullopt is written as "base64data": null
  std::string mediatype;
};

struct Package {
  std::string name;
  std::string default_channel;
  std::optional<Icon> icon;
  std::string description;
  std::vector<Property> properties;
  Location where;
};

struct ChannelEntry {
  std::string name;
  std::string replaces;
  std::vector<std::string> skips;
  std::string skip_range;
};

struct Channel {
  std::string name;
  std::string package;
  std::optional<std::vector<ChannelEntry>> entries; // nullopt is written as "entries": null
  std::vector<Property> properties;
  Location where;
};

struct RelatedImage {
  std::string name;
  std::string image;
};

// What a loaded bundle keeps of its olm.bundle.object properties' decoded objects.
enum class KeepObjects { all, csv_only };

struct Bundle {
  std::string name;
  std::string package;
  std::string image;
  std::vector<Property> properties;
  std::vector<RelatedImage> related_images;
  // Not written: the JSON text of each olm.bundle.object, and which of them is the CSV.
  std::vector<std::string> objects;
  std::optional<std::size_t> csv_index;
  // Objects read and checked but not kept (LoadOptions::keep_objects false).
  std::size_t dropped_objects = 0;
  Location where;

  [[nodiscard]] bool has_objects() const { return !objects.empty() || dropped_objects != 0; }

  // The CSV's JSON text; empty when the bundle has none.
  [[nodiscard]] std::string_view csv_json() const {
    return csv_index ? std::string_view(objects.at(*csv_index)) : std::string_view();
  }
};

struct PackageScopedReference {
  std::string schema;
  std::string name;
};

struct DeprecationEntry {
  PackageScopedReference reference;
  std::string message;
};

struct Deprecation {
  std::string package;
  std::optional<std::vector<DeprecationEntry>> entries; // nullopt is written as null
  Location where;
};

// Any other schema: the envelope fields and the whole (normalised) document.
struct Meta {
  std::string schema;
  std::string package;
  std::string name;
  Json blob;
  Location where;
};

struct DeclarativeConfig {
  std::vector<Package> packages;
  std::vector<Channel> channels;
  std::vector<Bundle> bundles;
  std::vector<Deprecation> deprecations;
  std::vector<Meta> others;

  void merge(DeclarativeConfig&& other);
};

} // namespace opm::catalog
