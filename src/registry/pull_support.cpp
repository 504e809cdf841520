#include "registry/pull_support.hpp"

#include "registry/digest.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/owned_temp.hpp"

#include <fmt/format.h>

#include <stdlib.h>

#include <cerrno>

namespace opm::registry {

Result<Descriptor> platform_child(const Manifest& index, const std::string& platform) {
  auto wanted = platform.empty() ? Result<Platform>(host_platform()) : parse_platform(platform);
  if (!wanted) {
    return std::unexpected(wanted.error());
  }
  return choose_platform(index, *wanted, platform.empty());
}

Result<Manifest>
resolve_nested_index(Manifest manifest, std::string_view top_digest, const std::string& platform,
                     std::string& image_digest,
                     const std::function<Result<Manifest>(const Descriptor&)>& read_child) {
  image_digest = std::string(top_digest);
  for (int depth = 0; manifest.kind == ManifestKind::index; ++depth) {
    if (depth == k_max_index_depth) {
      return util::fail(Errc::invalid,
                        fmt::format("image index {} nests indexes more than {} levels deep",
                                    top_digest, k_max_index_depth));
    }
    auto child = OPM_TRY(platform_child(manifest, platform));
    manifest = OPM_TRY(read_child(child));
    image_digest = child.digest;
  }
  return manifest;
}

Result<util::TempTree> make_temp_dir(const Options& options, std::string_view prefix,
                                     std::string_view what) {
  std::filesystem::path tmp = options.getenv("TMPDIR").value_or("/tmp");
  auto dir = util::TempTree::make(tmp, prefix, util::TempNaming::owned);
  if (!dir) {
    return util::fail(
        Errc::io, fmt::format("creating {} in {}: {}", what, tmp.string(), dir.error().message()));
  }
  return dir;
}

} // namespace opm::registry
