#include "registry/detail/layout_source.hpp"

#include "registry/digest.hpp"
#include "registry/http.hpp"
#include "registry/layout.hpp"
#include "registry/pull_support.hpp"
#include "util/c_free.hpp"
#include "util/fs.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

Result<std::string> verified_read(const fs::path& file, const Descriptor& d,
                                  std::size_t max_bytes) {
  auto body = OPM_TRY(util::read_file(file));
  if (body.size() > max_bytes) {
    return util::fail(Errc::invalid,
                      fmt::format("{} is larger than {} bytes", d.digest, max_bytes));
  }
  std::string got = digest_of(body, d.digest);
  if (got != d.digest) {
    return util::fail(Errc::invalid, fmt::format("digest mismatch for {}: got {}", d.digest, got));
  }
  return body;
}

// Hashes a layer without holding it in memory.
Result<void> verify_layer(const fs::path& file, const Descriptor& layer) {
  util::CFile f(std::fopen(file.c_str(), "rb"));
  if (!f) {
    return util::fail(Errc::not_found,
                      fmt::format("open {}: {}", file.string(), util::errno_text(errno)));
  }
  Hasher h(digest_algorithm(layer.digest));
  std::string buf(1 << 16, '\0');
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0) {
    h.update(std::string_view(buf.data(), n));
  }
  std::string got = h.finish();
  if (got != layer.digest) {
    return util::fail(Errc::invalid,
                      fmt::format("digest mismatch for {}: got {}", layer.digest, got));
  }
  return {};
}

} // namespace

Result<PulledImage> read_layout_image(std::string_view ref, const fs::path& root,
                                      const Descriptor& top, const std::string& platform) {
  PulledImage image;
  image.reference = std::string(ref);
  image.source = root.string();
  auto body = OPM_TRY(verified_read(blob_path(root, top.digest), top, k_manifest_body_cap));
  auto manifest = OPM_TRY(parse_manifest(body, top.media_type));
  image.digest = top.digest;
  image.media_type = manifest.media_type;
  manifest = OPM_TRY(resolve_nested_index(
      std::move(manifest), top.digest, platform, image.image_digest,
      [&root](const Descriptor& child) -> Result<Manifest> {
        auto child_body =
            OPM_TRY(verified_read(blob_path(root, child.digest), child, k_manifest_body_cap));
        return parse_manifest(child_body, child.media_type);
      }));
  auto config_body = OPM_TRY(
      verified_read(blob_path(root, manifest.config.digest), manifest.config, k_manifest_body_cap));
  image.config_digest = manifest.config.digest;
  image.labels = OPM_TRY(parse_config(config_body)).labels;
  for (const auto& l : manifest.layers) {
    OPM_TRY(verify_layer(blob_path(root, l.digest), l));
  }
  image.layers = manifest.layers;
  return image;
}

Result<PulledImage> LayoutSource::pull(const ImageLocation& at, PullParts /*parts*/,
                                       const PulledImage* /*earlier*/) {
  const auto& layout = *at.layout();
  auto top = OPM_TRY(resolve_layout_ref(layout.dir, layout.tag));
  return read_layout_image(at.text, layout.dir, top, m_options.platform);
}

Result<fs::path> LayoutSource::layer_root(const ImageLocation& at) { return at.layout()->dir; }

} // namespace opm::registry
