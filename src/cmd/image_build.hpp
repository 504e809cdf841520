// What the commands that build images without a container engine share.
#pragma once

#include "cmd/context.hpp"
#include "image/catalog_image.hpp"
#include "index/index_image.hpp"
#include "registry/puller.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace opm::cmd {

// Every timestamp of a built image: SOURCE_DATE_EPOCH when it is set, else 0 (the epoch).
Result<std::int64_t> source_date_epoch(const Context& ctx);

// Builds the index image `input` describes (its database on its binary image) and sends it
// to its tag: a registry push, oci:DIR[:TAG] or docker-archive:FILE. Returns its digest.
Result<std::string> build_index_without_tool(Context& ctx, registry::Puller& images,
                                             const index::BuildInput& input);

// Builds an image with `build` in a temporary directory named by `temp_prefix` (removed
// after, also on an interrupt), sends it where `tag` says (image::deliver, dated `created`)
// and prints its digest.
using ImageBuilder = std::function<Result<image::BuiltImage>(registry::Puller& images,
                                                             const std::filesystem::path& work)>;
Result<void> build_and_deliver(Context& ctx, const registry::Options& options,
                               std::string_view temp_prefix, const std::string& tag,
                               std::int64_t created, const ImageBuilder& build);

} // namespace opm::cmd
