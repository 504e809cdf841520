#pragma once

#include "catalog/declcfg.hpp"
#include "json/value.hpp"
#include "util/error.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

// The ClusterServiceVersion as upstream's registry package reads it: Kubernetes object
// metadata plus the raw `spec`, from which single values are picked on demand (each
// accessor fails the way upstream's does when the spec has the wrong shape).
namespace opm::bundle {

struct Csv {
  std::string name;
  std::map<std::string, std::string> annotations;
  std::map<std::string, std::string> labels;
  // nullopt when the CSV has no `spec` member (upstream then fails every accessor with
  // "unexpected end of JSON input").
  std::optional<Json> spec;
};

// Upstream's conversion of the decoded CSV object. `object_json` is the object's Go JSON
// encoding (compact, sorted keys), which type errors quote with a marker.
Result<Csv> csv_from_object(const Json& object, std::string_view object_json);

Result<std::string> csv_version(const Csv& csv);
// A string, or a number printed as an integer when whole, else as %g.
Result<std::string> csv_release(const Csv& csv);
Result<std::string> csv_replaces(const Csv& csv);
Result<std::vector<std::string>> csv_skips(const Csv& csv);
std::string csv_skip_range(const Csv& csv);
std::string csv_substitutes_for(const Csv& csv);

struct DefinitionKey {
  std::string group;
  std::string kind;
  std::string name;
  std::string version;
};
struct Definitions {
  std::vector<DefinitionKey> owned;
  std::vector<DefinitionKey> required;
};
Result<Definitions> csv_crd_definitions(const Csv& csv);
// Errors read "error unmarshaling into object map: ..." for a spec that is not an object.
Result<Definitions> csv_api_service_definitions(const Csv& csv);

// spec.relatedImages as written (duplicates kept).
Result<std::vector<catalog::RelatedImage>> csv_related_images(const Csv& csv);
// The images of every container and init container of the deployment install strategy;
// empty for any other strategy.
Result<std::set<std::string>> csv_operator_images(const Csv& csv);

} // namespace opm::bundle
