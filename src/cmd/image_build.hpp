// What the commands that build images without a container engine share.
#pragma once

#include "cmd/context.hpp"
#include "index/index_image.hpp"
#include "registry/puller.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <string>

namespace opm::cmd {

// Every timestamp of a built image: SOURCE_DATE_EPOCH when it is set, else 0 (the epoch).
Result<std::int64_t> source_date_epoch(const Context& ctx);

// Builds the index image `input` describes (its database on its binary image) and sends it
// to its tag: a registry push, oci:DIR[:TAG] or docker-archive:FILE. Returns its digest.
Result<std::string> build_index_without_tool(Context& ctx, registry::Puller& images,
                                             const index::BuildInput& input);

} // namespace opm::cmd
