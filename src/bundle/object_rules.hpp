#pragma once

#include "json/value.hpp"

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Rules for single manifests of a bundle image, as upstream's bundle validator applies them
// through operator-framework/api (pkg/validation/internal: csv.go, crd.go, object.go) and its
// own registry bundle validator. Each returns the problems found, upstream's wording.
namespace opm::bundle {

// (where, object) of each manifest read, in file-name order.
using ManifestObjects = std::vector<std::pair<std::string, Json>>;

// The kinds a registry+v1 bundle may carry (upstream's supported_resources.go).
bool is_supported_kind(std::string_view kind);

// The required rules for one object: a CSV's name, replaces, install modes and examples; a
// CRD's API version, versions and schemas; any other object's metadata.name.
std::vector<std::string> check_object(const Json& object, std::string_view kind,
                                      std::string_view api_version);

// Every CRD the CSV owns is among the bundle's CRDs.
std::vector<std::string> check_owned_crds_present(const ManifestObjects& objects);

// The optional bundle-objects rules: PodDisruptionBudget budgets, PriorityClass
// globalDefault, Role and ClusterRole rules on default security context constraints.
std::vector<std::string> check_bundle_object(const Json& object);

// The optional operatorhub rules that operator-framework/api writes down for a CSV; the
// categories annotation is checked against `custom_categories` when given, else the
// operatorhub.io list.
std::vector<std::string> check_operatorhub(const Json& csv,
                                           const std::set<std::string>* custom_categories);

} // namespace opm::bundle
