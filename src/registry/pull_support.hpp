#pragma once

#include "registry/manifest.hpp"
#include "registry/options.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <string_view>

// What the image sources behind registry::Puller share.
namespace opm::registry {

// The entry of an index for `platform` ("os/arch[/variant]"), or for this host when empty
// (then with containerd's linux/amd64 fallback).
Result<Descriptor> platform_child(const Manifest& index, const std::string& platform);

// A new `<TMPDIR>/<prefix><pid>-XXXXXX`, removed by an interrupt until it is unregistered,
// and by a later call for the same prefix once this process is gone (killed before it could);
// "creating <what> in <TMPDIR>: <errno text>" when it cannot be made.
Result<std::filesystem::path> make_temp_dir(const Options& options, std::string_view prefix,
                                            std::string_view what);

// Where a layout keeps a blob: <root>/blobs/<algorithm>/<hex>.
std::filesystem::path blob_path(const std::filesystem::path& root, std::string_view digest);

} // namespace opm::registry
