#include "image/output.hpp"

#include "registry/digest.hpp"
#include "registry/layer_writer.hpp"
#include "registry/layout.hpp"
#include "registry/reference.hpp"
#include "util/fs.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <system_error>

namespace opm::image {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

std::string mount_source(const BuiltImage& image, const registry::PushTarget& at) {
  const auto& base = image.base_reference;
  if (!base || base->domain != at.endpoint.cred_host) {
    return {};
  }
  return base->path;
}

// Every blob of every platform, before any manifest.
Result<void> push_blobs(const BuiltImage& image, registry::Pusher& pusher,
                        const registry::PushTarget& at, const std::string& mount_from) {
  std::vector<registry::PushBlob> blobs;
  for (const auto& m : image.manifests) {
    for (const auto& b : m.blobs) {
      blobs.push_back({b.descriptor, b.file, b.bytes, mount_from});
    }
  }
  return pusher.put_blobs(at, blobs);
}

// Puts one blob into a layout: a hard link to the source when it can, else a copy.
Result<void> place_blob(const fs::path& root, const ImageBlob& b) {
  fs::path target = registry::blob_path(root, b.descriptor.digest);
  std::error_code ec;
  if (fs::exists(target, ec)) {
    return {};
  }
  fs::create_directories(target.parent_path(), ec);
  if (b.file.empty()) {
    return util::write_file_atomic(target, b.bytes);
  }
  fs::create_hard_link(b.file, target, ec);
  if (ec) {
    ec.clear();
    fs::copy_file(b.file, target, ec);
  }
  if (ec) {
    return util::fail(Errc::io, fmt::format("writing {}: {}", target.string(), ec.message()));
  }
  return {};
}

Json index_entry(const registry::Descriptor& d, const std::string& tag) {
  Json j = {{"mediaType", d.media_type}, {"digest", d.digest}, {"size", d.size}};
  if (!tag.empty()) {
    j["annotations"] = {{"org.opencontainers.image.ref.name", tag}};
  }
  return j;
}

} // namespace

Result<std::string> push_image(const BuiltImage& image, registry::Pusher& pusher,
                               const registry::PushTarget& at) {
  std::string mount_from = mount_source(image, at);
  std::string tag_or_digest = at.tag.empty() ? image.top().descriptor.digest : at.tag;
  OPM_TRY(push_blobs(image, pusher, at, mount_from));
  for (const auto& m : image.manifests) {
    std::string reference = image.index ? m.descriptor.digest : tag_or_digest;
    OPM_TRY(pusher.put_manifest(at, reference, m.descriptor.media_type, m.body));
  }
  if (image.index) {
    OPM_TRY(pusher.put_manifest(at, tag_or_digest, image.index->descriptor.media_type,
                                image.index->body));
  }
  return image.top().descriptor.digest;
}

Result<void> write_oci_layout(const BuiltImage& image, const fs::path& dir,
                              const std::string& tag) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return util::fail(Errc::io, fmt::format("creating {}: {}", dir.string(), ec.message()));
  }
  for (const auto& m : image.manifests) {
    for (const auto& b : m.blobs) {
      OPM_TRY(place_blob(dir, b));
    }
    OPM_TRY(place_blob(dir, ImageBlob{m.descriptor, {}, m.body}));
  }
  if (image.index) {
    OPM_TRY(place_blob(dir, ImageBlob{image.index->descriptor, {}, image.index->body}));
  }
  OPM_TRY(util::write_file_atomic(dir / "oci-layout", R"({"imageLayoutVersion":"1.0.0"})"));
  Json index = {{"schemaVersion", 2}, {"manifests", Json::array()}};
  if (fs::exists(dir / "index.json", ec)) {
    auto text = OPM_TRY(util::read_file(dir / "index.json"));
    auto old = Json::parse(text, nullptr, false);
    if (old.is_object() && old.contains("manifests") && old["manifests"].is_array()) {
      for (const auto& e : old["manifests"]) {
        bool same_name = !tag.empty() && e.contains("annotations") &&
                         e["annotations"].value("org.opencontainers.image.ref.name", "") == tag;
        if (!same_name) {
          index["manifests"].push_back(e);
        }
      }
    }
  }
  registry::Descriptor top = image.top().descriptor;
  top.platform.reset();
  index["manifests"].push_back(index_entry(top, tag));
  return util::write_file_atomic(dir / "index.json", index.dump());
}

Result<void> write_docker_archive(const BuiltImage& image, const fs::path& file,
                                  const std::string& repo_tag, std::int64_t mtime) {
  using registry::LayerEntry;
  const ImageManifest& m = image.manifests.front();
  auto name_of = [](const registry::Descriptor& d) {
    return fmt::format("blobs/{}/{}", registry::digest_algorithm(d.digest),
                       registry::digest_hex(d.digest));
  };
  std::vector<LayerEntry> entries;
  auto add_dir = [&](std::string name) {
    entries.push_back({std::move(name), LayerEntry::Type::directory, 0755, {}, {}, {}});
  };
  auto add_file = [&](std::string name, fs::path source, std::string data) {
    entries.push_back(
        {std::move(name), LayerEntry::Type::file, 0644, std::move(source), std::move(data), {}});
  };
  add_dir("blobs");
  add_dir("blobs/sha256");
  std::vector<const ImageBlob*> blobs;
  for (const auto& b : m.blobs) {
    blobs.push_back(&b);
  }
  ImageBlob manifest_blob{m.descriptor, {}, m.body};
  manifest_blob.descriptor.platform.reset();
  blobs.push_back(&manifest_blob);
  std::sort(blobs.begin(), blobs.end(), [](const ImageBlob* a, const ImageBlob* b) {
    return a->descriptor.digest < b->descriptor.digest;
  });
  blobs.erase(std::unique(blobs.begin(), blobs.end(),
                          [](const ImageBlob* a, const ImageBlob* b) {
                            return a->descriptor.digest == b->descriptor.digest;
                          }),
              blobs.end());
  for (const auto* b : blobs) {
    add_file(name_of(b->descriptor), b->file, b->bytes);
  }
  Json layers = Json::array();
  for (std::size_t i = 1; i < m.blobs.size(); ++i) {
    layers.push_back(name_of(m.blobs[i].descriptor));
  }
  Json tags = Json::array();
  if (!repo_tag.empty()) {
    tags.push_back(repo_tag);
  }
  Json manifest = Json::array(
      {{{"Config", name_of(m.blobs.front().descriptor)}, {"RepoTags", tags}, {"Layers", layers}}});
  Json index = {{"schemaVersion", 2},
                {"manifests", Json::array({index_entry(manifest_blob.descriptor, repo_tag)})}};
  add_file("index.json", {}, index.dump());
  add_file("manifest.json", {}, manifest.dump());
  add_file("oci-layout", {}, R"({"imageLayoutVersion":"1.0.0"})");
  return registry::write_tar(entries, mtime, file);
}

Result<std::string> deliver(const BuiltImage& image, const registry::Options& options,
                            const registry::ImageLocation& to, std::int64_t created) {
  if (const auto* layout = to.layout()) {
    OPM_TRY(write_oci_layout(image, layout->dir, layout->tag));
    return image.top().descriptor.digest;
  }
  if (const auto* archive = to.archive()) {
    OPM_TRY(write_docker_archive(image, archive->file, archive->ref, created));
    return image.top().descriptor.digest;
  }
  registry::Pusher pusher(options);
  auto at = OPM_TRY(pusher.target(*to.remote()));
  return push_image(image, pusher, at);
}

} // namespace opm::image
