#pragma once

#include "serve/registry.pb.h"
#include "util/error.hpp"

#include <string_view>

// Reads a cached bundle file (cache/<pkg>_<ch>_<bundle>.json) straight into an api.Bundle.
// Starting from a cache is mostly this: the files are large JSON strings (the CSV and the
// other manifests, escaped), so strings are decoded a run of plain bytes at a time into the
// message's own fields, without building a JSON tree. Members are matched by exact name, the
// last of a repeated name wins, and members of other names or of other types are skipped.
namespace opm::serve {

Result<api::Bundle> read_bundle_json(std::string_view text);

} // namespace opm::serve
