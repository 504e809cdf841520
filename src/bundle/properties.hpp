#pragma once

#include "bundle/apis.hpp"
#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <string>
#include <string_view>
#include <vector>

// Bundle properties and dependencies as upstream's registry package holds them: a type and
// the value's JSON bytes exactly as read (json.RawMessage), which decide deduplication and
// ordering.
namespace opm::bundle {

struct RawProperty {
  std::string type;
  std::string value; // JSON text as read; empty when the entry had no value

  friend bool operator==(const RawProperty&, const RawProperty&) = default;
};

// Upstream's propertySet: the first of each (type, value bytes) pair, in order.
std::vector<RawProperty> property_set(std::vector<RawProperty> properties);

// The CSV annotation `olm.properties` read as upstream does: invalid JSON gives nothing;
// otherwise every array element becomes an entry, even when its shape is wrong (such
// elements keep empty fields).
std::vector<RawProperty> annotation_properties(std::string_view text);

// The values opm itself generates (compact JSON, no HTML escaping).
std::string package_value(std::string_view name, std::string_view version,
                          std::string_view release);
std::string gvk_value(std::string_view group, std::string_view kind, std::string_view version);

// The first olm.package entry's version, as the image reference template sees it.
Result<std::string> first_package_version(const std::vector<RawProperty>& properties);

struct PropertyInputs {
  const std::vector<RawProperty>& properties;   // properties file + derived entries
  const std::vector<RawProperty>& dependencies; // dependencies file
  const std::vector<std::string>& object_json;  // each manifest object's JSON text
  std::string_view package;                     // annotations package
  // Computed by the caller; their errors are reported after property value errors, in this
  // order, wrapped "get version: ", "get release: ", "get required apis: ".
  const Result<std::string>& version; // CSV spec.version
  const Result<std::string>& release; // CSV spec.release
  const ApiSet& provided;
  const Result<ApiSet>& required;
};

// Upstream's ObjectsAndPropertiesFromBundle: the olm.bundle's property list, sorted by type
// then value bytes. Errors: `parse property[<i>] of type "<type>": <json error>`.
Result<std::vector<catalog::Property>> bundle_properties(const PropertyInputs& in);

} // namespace opm::bundle
