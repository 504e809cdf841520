#pragma once

#include "json/value.hpp"
#include "util/error.hpp"

#include <string>
#include <string_view>

namespace opm::bundle {

// The value of an olm.csv.metadata property for a ClusterServiceVersion given as JSON
// text: upstream decodes it into the typed OLM API ClusterServiceVersion (so type errors
// and a spec.version that is not semver fail, with Go's messages) and writes these members
// in this order, omitting empty ones except the three always present (†):
// annotations, apiServiceDefinitions†, crdDescriptions†, description, displayName,
// installModes, keywords, labels, links, maintainers, maturity, minKubeVersion, nativeAPIs,
// provider†. Returns compact JSON text (no HTML escaping; descriptor values verbatim).
Result<std::string> csv_metadata_json(std::string_view csv_json);

} // namespace opm::bundle
