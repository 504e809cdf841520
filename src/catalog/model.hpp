#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"
#include "util/semver.hpp"

#include <deque>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

// The package -> channel -> bundle graph built from a declarative config, as upstream's
// alpha/declcfg/declcfg_to_model.go builds it. Conversion stops at the first
// problem, as upstream's ConvertToModel does, located at the offending object.
namespace opm::catalog::model {

struct Deprecation {
  std::string message;
  bool present = false;
};

// One channel entry. The graph edges (replaces, skips, skipRange) belong to the entry;
// everything else comes from the olm.bundle object of that name, shared by every channel
// that lists it.
struct Bundle {
  std::string name;
  std::string package;
  std::string channel;
  std::string image;
  std::string replaces;
  std::vector<std::string> skips;
  std::string skip_range;
  std::string version;                                  // olm.package version text ("" when absent)
  std::string release;                                  // olm.package release text ("" when absent)
  util::semver::Version parsed_version;                 // 0.0.0 when absent
  std::vector<util::semver::PreRelease> parsed_release; // empty when absent
  Deprecation deprecation;
  bool has_blob = false; // false: a channel entry with no olm.bundle object
  // The olm.bundle object (properties, related images, objects, CSV), or nullptr for an
  // entry without one. Points into the DeclarativeConfig given to to_model().
  const catalog::Bundle* blob = nullptr;
  Location where; // the olm.bundle object, or the channel for entries without one

  [[nodiscard]] std::span<const Property> properties() const;
  [[nodiscard]] std::span<const RelatedImage> related_images() const;
  [[nodiscard]] std::span<const std::string> objects() const;
  [[nodiscard]] bool has_objects() const;
  [[nodiscard]] std::string_view csv_json() const;
  // "<version>" or, with a release, "<version>-<release>" (upstream's VersionString).
  [[nodiscard]] std::string version_string() const;
};

struct Channel {
  std::string name;
  std::string package;
  std::map<std::string, Bundle, std::less<>> bundles; // by name
  std::vector<std::string> entry_order;               // entry names in channel order
  std::vector<Property> properties;
  Deprecation deprecation;
  Location where; // the olm.channel object (the olm.package for a synthesised default)
  // false: the package's defaultChannel names a channel no olm.channel defines, made empty
  bool defined = true;
};

struct Package {
  std::string name;
  std::string description;
  std::optional<Icon> icon;
  std::string default_channel; // "" when unset
  std::map<std::string, Channel, std::less<>> channels;
  Deprecation deprecation;
  Location where;
};

struct Model {
  std::map<std::string, Package, std::less<>> packages;
  // Bundle objects owned by the model itself, for a model built from something other than a
  // DeclarativeConfig (an index database): Bundle::blob may point here, one object per entry
  // when channels differ. A deque keeps them in place as it grows and when the model moves.
  std::deque<catalog::Bundle> owned_blobs;

  Model() = default;
  Model(Model&&) = default;
  Model& operator=(Model&&) = default;
  // Copies would leave Bundle::blob pointing into the original.
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  ~Model() = default;
};

// The first failing conversion check, or the model. The model points into
// `cfg` (Bundle::blob): keep `cfg` alive and unchanged while the model is used.
Result<Model> to_model(const DeclarativeConfig& cfg);
Result<Model> to_model(DeclarativeConfig&& cfg) = delete;

// The unique bundle no other bundle of the channel replaces or skips; error text as upstream:
// "no channel head found in graph", "multiple channel heads found in graph: x1, x2".
Result<const Bundle*> channel_head(const Channel& channel);

// A release (olm.package "release"): at most 20 characters, dot-separated semver
// pre-release identifiers. "" is no release. Errors as upstream's model.NewRelease:
// `invalid release "01.a_b": segment 0: Numeric PreRelease version must not contain leading
// zeroes "01"` + "\n" + `segment 1: Invalid character(s) found in prerelease "a_b"`.
Result<std::vector<util::semver::PreRelease>> parse_release(std::string_view text);

} // namespace opm::catalog::model
