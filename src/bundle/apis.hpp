#pragma once

#include "bundle/csv.hpp"
#include "json/value.hpp"
#include "util/error.hpp"

#include <set>
#include <string>
#include <tuple>
#include <vector>

// The APIs a bundle provides (its CRDs and owned API services) and requires, as upstream's
// registry.Bundle computes them.
namespace opm::bundle {

struct Api {
  std::string group;
  std::string version;
  std::string kind;
  std::string plural;

  // Field by field, as Go's fmt sorts map keys of this shape.
  friend bool operator<(const Api& a, const Api& b) {
    return std::tie(a.group, a.version, a.kind, a.plural) <
           std::tie(b.group, b.version, b.kind, b.plural);
  }
  friend bool operator==(const Api&, const Api&) = default;
  // "group/version/kind (plural)"
  [[nodiscard]] std::string describe() const;
};

using ApiSet = std::set<Api>;

// "group/version" split of an apiVersion as Kubernetes parses it; nullopt when it has more
// than one "/". An apiVersion without "/" is a version of the empty group.
struct GroupVersion {
  std::string group;
  std::string version;
};
std::optional<GroupVersion> parse_group_version(std::string_view api_version);

// The APIs one CustomResourceDefinition object serves. Only apiVersion versions "v1" and
// "v1beta1" are CRDs to upstream; others give nothing. Errors read
// "error decoding v1 CRD: ..." / "error decoding v1beta1 CRD: ...".
Result<std::vector<Api>> crd_apis(const Json& crd, std::string_view version);

// CRD APIs plus the CSV's owned API services.
Result<ApiSet> provided_apis(const std::vector<Api>& crd_apis, const Csv& csv);

// The CSV's required CRDs and API services.
Result<ApiSet> required_apis(const Csv& csv);

// Every CRD the CSV owns must be among `provided`:
// "couldn't find g/v/k (p) in bundle. found: map[...]".
Result<void> check_owned_crds(const Csv& csv, const ApiSet& provided);

} // namespace opm::bundle
