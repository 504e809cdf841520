#pragma once

#include "catalog/declcfg.hpp"
#include "json/value.hpp"
#include "util/error.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

// Typed property values (olm.package, olm.gvk, ...), decoded as upstream's
// alpha/property.Parse decodes them with Go's encoding/json: members are matched
// case-insensitively, unknown members are ignored, null leaves a field empty, and a
// value of the wrong shape fails with Go's message.
namespace opm::catalog::property {

struct Package {
  std::string package_name;
  std::string version;
  std::string release;
};

struct PackageRequired {
  std::string package_name;
  std::string version_range;
};

struct Gvk {
  std::string group;
  std::string kind;
  std::string version;
};

struct GvkRequired {
  std::string group;
  std::string kind;
  std::string version;
};

// The base64 text of an embedded manifest (validated, not decoded). Points into the
// property it came from.
struct BundleObject {
  std::string_view data;
};

// An olm.csv.metadata value whose shape matches upstream's CSVMetadata struct.
// Points into the property it came from.
struct CsvMetadata {
  const Json* value = nullptr;
};

struct Channel {
  std::string channel_name;
};

struct Properties {
  std::vector<Package> packages;
  std::vector<PackageRequired> packages_required;
  std::vector<Gvk> gvks;
  std::vector<GvkRequired> gvks_required;
  std::vector<BundleObject> bundle_objects;
  std::vector<Channel> channels;
  std::vector<CsvMetadata> csv_metadatas;
  std::vector<const Property*> others;
};

// Decode every property, in order; stop at the first that does not decode:
//   parse property[<i>] of type "<type>": <Go json error>
// e.g. `parse property[0] of type "olm.package": json: cannot unmarshal array into Go value
// of type property.Package`. A property whose value is missing (a discarded Json) fails with
// "unexpected end of JSON input". The result points into `props`.
Result<Properties> parse(std::span<const Property> props);

// The Go json error for one value of a known type ("olm.package", ...), or nullopt when
// it decodes. Unknown types accept any value.
std::optional<std::string> check_value(std::string_view type, const Json& value);

// Decoders for single values; the error text is Go's json error alone.
Result<Package> decode_package(const Json& value);
Result<PackageRequired> decode_package_required(const Json& value);
Result<Gvk> decode_gvk(const Json& value);
Result<GvkRequired> decode_gvk_required(const Json& value);
Result<Channel> decode_channel(const Json& value);
// The fields of an olm.gvk or olm.gvk.required value already checked (by a decoder above, by
// parse, or as a validated model's property), read without checking it again.
Gvk read_checked_gvk(const Json& value);

} // namespace opm::catalog::property
