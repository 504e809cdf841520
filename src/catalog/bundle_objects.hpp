#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

namespace opm::catalog {

// Upstream's readBundleObjects: decode every olm.bundle.object property ({"data": base64})
// into `bundle.objects` (JSON text of each object) and set `bundle.csv_index` to the first
// object whose kind is ClusterServiceVersion. Error texts as upstream's, e.g.
// `package "a", bundle "b": parse property at index 2 as bundle object: illegal base64 data at
// input byte 0`.
Result<void> read_bundle_objects(Bundle& bundle);

} // namespace opm::catalog
