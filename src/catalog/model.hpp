#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

// The package -> channel -> bundle graph built from a declarative config, as upstream's
// alpha/declcfg/declcfg_to_model.go builds it (catalog-format.md §2.3). Conversion stops
// at the first problem (validate.md §3), located at the offending object.
namespace opm::catalog::model {

struct Deprecation {
  std::string message;
  bool present = false;
};

struct Bundle {
  std::string name;
  std::string package;
  std::string channel;
  std::string image;
  std::string replaces;
  std::vector<std::string> skips;
  std::string skip_range;
  std::vector<Property> properties;
  std::vector<RelatedImage> related_images;
  std::vector<std::string> objects;
  std::string csv_json;
  std::string version;  // olm.package version text ("" when absent)
  std::string release;  // olm.package release text ("" when absent)
  Deprecation deprecation;
  bool has_blob = false; // false: a channel entry with no olm.bundle object
  Location where;        // the olm.bundle object, or the channel for entries without one
};

struct Channel {
  std::string name;
  std::string package;
  std::map<std::string, Bundle> bundles; // by name
  std::vector<std::string> entry_order;  // entry names in channel order
  std::vector<Property> properties;
  Deprecation deprecation;
  Location where;
};

struct Package {
  std::string name;
  std::string description;
  std::optional<Icon> icon;
  std::string default_channel; // "" when unset
  std::map<std::string, Channel> channels;
  Deprecation deprecation;
  Location where;
};

struct Model {
  std::map<std::string, Package> packages;
};

// validate.md §3: the first failing conversion check, or the model.
Result<Model> to_model(const DeclarativeConfig& cfg);

// The unique bundle no other bundle of the channel replaces or skips; error text as upstream.
Result<const Bundle*> channel_head(const Channel& channel);

} // namespace opm::catalog::model
