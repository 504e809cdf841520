#pragma once

#include "registry/manifest.hpp"
#include "registry/options.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

// What the image sources behind registry::Puller share.
namespace opm::registry {

// The entry of an index for `platform` ("os/arch[/variant]"), or for this host when empty
// (then with containerd's linux/amd64 fallback).
Result<Descriptor> platform_child(const Manifest& index, const std::string& platform);

// An index may list another index (`skopeo copy --all` writes such layouts); this many levels
// below the top are followed to the platform's image.
inline constexpr int k_max_index_depth = 4;

// From `manifest` (the top manifest, whose digest is `top_digest`) down through nested indexes
// to the platform's image manifest, reading each child with `read_child`. `image_digest` is set
// to the digest of the image manifest reached. Fails with "image index <top> nests indexes more
// than 4 levels deep" past k_max_index_depth.
Result<Manifest>
resolve_nested_index(Manifest manifest, std::string_view top_digest, const std::string& platform,
                     std::string& image_digest,
                     const std::function<Result<Manifest>(const Descriptor&)>& read_child);

// A new `<TMPDIR>/<prefix><pid>-XXXXXX`, removed when the tree goes away or an interrupt ends
// the process, and by a later call for the same prefix once this process is gone (killed before it
// could); "creating <what> in <TMPDIR>: <errno text>" when it cannot be made.
Result<util::TempTree> make_temp_dir(const Options& options, std::string_view prefix,
                                     std::string_view what);

} // namespace opm::registry
