#include "registry/detail/archive_source.hpp"

#include "registry/detail/layout_source.hpp"
#include "registry/detail/unpack.hpp"
#include "registry/digest.hpp"
#include "registry/layout.hpp"
#include "registry/pull_support.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"

#include <nlohmann/json.hpp>

#include <system_error>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

// podman saves OCI archives: an index.json and no manifest.json.
bool is_oci_archive(const fs::path& root) {
  std::error_code ec;
  return fs::exists(root / "index.json", ec) && !fs::exists(root / "manifest.json", ec);
}

// The manifest.json entry for `wanted_tag`, or the only one when no tag is wanted.
Result<const nlohmann::json*> archive_entry(const nlohmann::json& doc, const std::string& file,
                                            const std::string& wanted_tag) {
  const nlohmann::json* entry = nullptr;
  for (const auto& e : doc) {
    if (!e.is_object()) {
      continue;
    }
    if (wanted_tag.empty()) {
      if (entry != nullptr) {
        return util::fail(Errc::invalid, fmt::format("{} holds more than one image; name one with "
                                                     "docker-archive:{}:REF",
                                                     file, file));
      }
      entry = &e;
      continue;
    }
    for (const auto& t : e.value("RepoTags", nlohmann::json::array())) {
      if (t.is_string() && t.get<std::string>() == wanted_tag) {
        entry = &e;
      }
    }
  }
  if (entry == nullptr) {
    return util::fail(Errc::not_found, fmt::format("no image \"{}\" in {}", wanted_tag, file));
  }
  return entry;
}

// Hashes a layer and links it under <dir>/blobs/sha256 by its digest.
Result<Descriptor> link_layer(const fs::path& layer, const fs::path& dir) {
  Hasher h;
  auto content = OPM_TRY(util::read_file(layer));
  h.update(content);
  Descriptor d;
  d.digest = h.finish();
  d.size = static_cast<std::int64_t>(content.size());
  d.media_type = "application/vnd.docker.image.rootfs.diff.tar";
  fs::path link = blob_path(dir, d.digest);
  std::error_code ec;
  if (!fs::exists(link, ec)) {
    fs::create_hard_link(layer, link, ec);
    if (ec) {
      fs::copy_file(layer, link, ec);
    }
  }
  return d;
}

} // namespace

Result<fs::path> ArchiveSource::unpacked(const std::string& key, const fs::path& file) {
  {
    std::lock_guard lock(m_mutex);
    if (auto it = m_dirs.find(key); it != m_dirs.end()) {
      return it->second.path();
    }
  }
  auto tree = OPM_TRY(make_temp_dir(m_options, "opm-archive-", "a temporary directory"));
  fs::path dir = tree.path();
  {
    std::lock_guard lock(m_mutex);
    // Another thread may have unpacked the same archive meanwhile; this copy lives on too.
    if (auto [it, added] = m_dirs.try_emplace(key, std::move(tree)); !added) {
      m_spare_dirs.push_back(std::move(tree));
    }
  }
  LayerFile whole{file, fmt::format("docker-archive:{}", file.string()), "application/x-tar"};
  OPM_TRY(unpack_layers({whole}, dir / "x", m_options.limits, m_options.log));
  return dir;
}

Result<PulledImage> ArchiveSource::pull(const ImageLocation& at, PullParts /*parts*/,
                                        const PulledImage* /*earlier*/) {
  std::string file = at.archive()->file.string();
  std::string wanted_tag = at.archive()->ref;
  // A file whose own name has a ':' is read whole.
  std::error_code ec;
  if (std::string whole = file + ":" + wanted_tag; !wanted_tag.empty() && fs::exists(whole, ec)) {
    file = whole;
    wanted_tag.clear();
  }
  fs::path dir = OPM_TRY(unpacked(at.text, file));
  fs::path root = dir / "x";
  if (is_oci_archive(root)) {
    auto top = OPM_TRY(resolve_layout_ref(root, wanted_tag));
    return read_layout_image(at.text, root, top, m_options.platform);
  }
  auto manifest_text = OPM_TRY(util::read_file(root / "manifest.json"));
  auto doc = nlohmann::json::parse(manifest_text, nullptr, false);
  if (!doc.is_array() || doc.empty()) {
    return util::fail(Errc::invalid, fmt::format("{}: invalid manifest.json", file));
  }
  const nlohmann::json* entry = OPM_TRY(archive_entry(doc, file, wanted_tag));
  PulledImage image;
  image.reference = at.text;
  image.source = file;
  std::string config_name = entry->value("Config", "");
  auto config_body = OPM_TRY(util::read_file(root / config_name));
  image.config_digest = digest_of(config_body);
  image.digest = image.config_digest;
  image.image_digest = image.config_digest;
  image.media_type = "application/vnd.docker.distribution.manifest.v2+json";
  image.labels = OPM_TRY(parse_config(config_body)).labels;
  // Layers stay where the archive put them; the unpacker finds them through links
  // named by digest under blobs/.
  fs::create_directories(dir / "blobs" / "sha256", ec);
  for (const auto& l : entry->value("Layers", nlohmann::json::array())) {
    if (l.is_string()) {
      image.layers.push_back(OPM_TRY(link_layer(root / l.get<std::string>(), dir)));
    }
  }
  return image;
}

Result<fs::path> ArchiveSource::layer_root(const ImageLocation& at) {
  std::lock_guard lock(m_mutex);
  auto it = m_dirs.find(at.text);
  if (it == m_dirs.end()) {
    return util::fail(Errc::not_found, fmt::format("{} has not been read", at.text));
  }
  fs::path inner = it->second.path() / "x";
  return is_oci_archive(inner) ? inner : it->second.path();
}

void ArchiveSource::reset() {
  std::lock_guard lock(m_mutex);
  m_dirs.clear();
  m_spare_dirs.clear();
}

} // namespace opm::registry
