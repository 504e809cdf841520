#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

namespace opm::catalog {

// Upstream's readBundleObjects: decode every olm.bundle.object property ({"data": base64})
// into `bundle.objects` (JSON text of each object) and set `bundle.csv_index` to the first
// object whose kind is ClusterServiceVersion. Error texts as upstream's, e.g.
// `package "a", bundle "b": parse property at index 2 as bundle object: illegal base64 data at
// input byte 0`.
// With KeepObjects::csv_only every object is still read and checked, but only the CSV is kept (the
// one object writing the catalog, its migrations and listings read); the others are counted in
// `bundle.dropped_objects`. With ObjectData::release each property's data is emptied once it
// is decoded.
enum class ObjectData { keep, release };
Result<void> read_bundle_objects(Bundle& bundle, KeepObjects keep = KeepObjects::all,
                                 ObjectData object_data = ObjectData::keep);

} // namespace opm::catalog
