#include "image/detail/assembly.hpp"

#include "registry/digest.hpp"
#include "registry/location.hpp"
#include "util/fs.hpp"

#include <fmt/format.h>

#include <ctime>

namespace opm::image::detail {

using registry::Descriptor;
using Json = nlohmann::json;

namespace {

constexpr std::string_view k_oci_config = "application/vnd.oci.image.config.v1+json";
constexpr std::string_view k_oci_layer = "application/vnd.oci.image.layer.v1.tar+gzip";
constexpr std::string_view k_docker_config = "application/vnd.docker.container.image.v1+json";
constexpr std::string_view k_docker_layer = "application/vnd.docker.image.rootfs.diff.tar.gzip";

Json descriptor_json(const Descriptor& d) {
  Json j = {{"mediaType", d.media_type}, {"digest", d.digest}, {"size", d.size}};
  if (d.platform) {
    Json p = {{"architecture", d.platform->architecture}, {"os", d.platform->os}};
    if (!d.platform->variant.empty()) {
      p["variant"] = d.platform->variant;
    }
    j["platform"] = p;
  }
  return j;
}

ImageBlob memory_blob(std::string media_type, std::string bytes) {
  ImageBlob b;
  b.descriptor.media_type = std::move(media_type);
  b.descriptor.digest = registry::digest_of(bytes);
  b.descriptor.size = static_cast<std::int64_t>(bytes.size());
  b.bytes = std::move(bytes);
  return b;
}

Json& object_member(Json& parent, const char* name) {
  Json& member = parent[name];
  if (!member.is_object()) {
    member = Json::object();
  }
  return member;
}

Result<BasePlatform> read_base(registry::Puller& images, const registry::ImageLocation& ref) {
  auto pulled = OPM_TRY(images.pull(ref));
  BasePlatform base;
  auto manifest_file = OPM_TRY(images.blob_file(ref, pulled.image_digest));
  auto manifest_body = OPM_TRY(util::read_file(manifest_file));
  auto manifest = OPM_TRY(registry::parse_manifest(manifest_body, ""));
  base.flavor.docker = manifest.media_type == registry::media::docker_manifest;
  auto config_file = OPM_TRY(images.blob_file(ref, pulled.config_digest));
  auto config_body = OPM_TRY(util::read_file(config_file));
  base.config = Json::parse(config_body, nullptr, false);
  if (!base.config.is_object()) {
    return util::fail(Errc::invalid,
                      fmt::format("base image {}: config is not a JSON object", ref.text));
  }
  for (const auto& layer : manifest.layers) {
    ImageBlob blob;
    blob.descriptor = layer;
    blob.file = OPM_TRY(images.blob_file(ref, layer.digest));
    base.layers.push_back(std::move(blob));
  }
  return base;
}

BasePlatform scratch_base(const std::string& platform) {
  BasePlatform base;
  auto parsed = registry::parse_platform(platform);
  registry::Platform p = parsed ? *parsed : registry::host_platform();
  base.config = {{"architecture", p.architecture}, {"os", p.os}};
  if (!p.variant.empty()) {
    base.config["variant"] = p.variant;
  }
  return base;
}

// The image manifests of every platform a multi-platform base in a registry lists, by digest.
Result<std::vector<std::pair<registry::ImageLocation, registry::Platform>>>
platform_refs(registry::Puller& images, const registry::ImageLocation& ref,
              const registry::PulledImage& top) {
  std::vector<std::pair<registry::ImageLocation, registry::Platform>> out;
  auto index_file = OPM_TRY(images.blob_file(ref, top.digest));
  auto index = OPM_TRY(registry::parse_manifest(OPM_TRY(util::read_file(index_file)), ""));
  const registry::Reference& name = *ref.remote();
  for (const auto& entry : index.entries) {
    // Attestations and other non-runnable entries carry an "unknown" platform.
    if (!entry.platform || entry.platform->os == "unknown" || entry.platform->os.empty()) {
      continue;
    }
    auto child = name;
    child.tag.clear();
    child.digest = entry.digest;
    out.emplace_back(registry::remote_location(std::move(child)), *entry.platform);
  }
  return out;
}

ImageManifest make_index(const std::vector<ImageManifest>& manifests, const Flavor& flavor) {
  Json j = {{"schemaVersion", 2}, {"mediaType", flavor.index()}, {"manifests", Json::array()}};
  for (const auto& m : manifests) {
    j["manifests"].push_back(descriptor_json(m.descriptor));
  }
  ImageManifest index;
  index.body = j.dump();
  index.descriptor.media_type = flavor.index();
  index.descriptor.digest = registry::digest_of(index.body);
  index.descriptor.size = static_cast<std::int64_t>(index.body.size());
  return index;
}

} // namespace

std::string Flavor::manifest() const {
  return std::string(docker ? registry::media::docker_manifest : registry::media::oci_manifest);
}
std::string Flavor::index() const {
  return std::string(docker ? registry::media::docker_list : registry::media::oci_index);
}
std::string Flavor::config() const { return std::string(docker ? k_docker_config : k_oci_config); }
std::string Flavor::layer() const { return std::string(docker ? k_docker_layer : k_oci_layer); }

Result<std::vector<BasePlatform>> read_bases(const std::string& base_image,
                                             const std::string& platform, registry::Puller& images,
                                             std::optional<registry::Reference>& canonical) {
  std::vector<BasePlatform> bases;
  if (base_image == "scratch") {
    bases.push_back(scratch_base(platform));
    return bases;
  }
  auto location = OPM_TRY(registry::parse_image_location(base_image));
  bool registry_ref = location.remote() != nullptr;
  auto top = OPM_TRY(images.pull(location));
  bool multi = top.digest != top.image_digest;
  if (registry_ref) {
    canonical = *location.remote();
  }
  if (!multi || !platform.empty() || !registry_ref) {
    auto base = OPM_TRY(read_base(images, location));
    if (multi) {
      if (auto p = registry::parse_platform(platform)) {
        base.platform = *p;
      }
    }
    bases.push_back(std::move(base));
    return bases;
  }
  for (auto& [ref, p] : OPM_TRY(platform_refs(images, location, top))) {
    auto base = OPM_TRY(read_base(images, ref));
    base.platform = p;
    bases.push_back(std::move(base));
  }
  if (bases.empty()) {
    return util::fail(Errc::invalid, fmt::format("base image {} lists no platform", base_image));
  }
  return bases;
}

std::string rfc3339(std::int64_t seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

Json history_entry(std::int64_t created, std::string created_by, std::string_view comment,
                   bool empty) {
  Json h = {{"created", rfc3339(created)},
            {"created_by", std::move(created_by)},
            {"comment", std::string(comment)}};
  if (empty) {
    h["empty_layer"] = true;
  }
  return h;
}

Json& prepare_config(Json& config, std::int64_t created, const std::vector<Json>& history,
                     const std::vector<NewLayer>& layers) {
  config["created"] = rfc3339(created);
  Json& c = object_member(config, "config");
  object_member(c, "Labels");
  Json& records = config["history"];
  if (!records.is_array()) {
    records = Json::array();
  }
  for (const auto& h : history) {
    records.push_back(h);
  }
  Json& rootfs = config["rootfs"];
  if (!rootfs.is_object()) {
    rootfs = {{"type", "layers"}};
  }
  Json& diff_ids = rootfs["diff_ids"];
  if (!diff_ids.is_array()) {
    diff_ids = Json::array();
  }
  for (const auto& l : layers) {
    diff_ids.push_back(l.written.diff_id);
  }
  return c;
}

ImageManifest assemble(BasePlatform base, std::string config_body,
                       const std::vector<NewLayer>& layers) {
  ImageManifest m;
  ImageBlob config = memory_blob(base.flavor.config(), std::move(config_body));
  Json j = {{"schemaVersion", 2}, {"mediaType", base.flavor.manifest()}};
  j["config"] = descriptor_json(config.descriptor);
  j["layers"] = Json::array();
  m.blobs.push_back(std::move(config));
  for (auto& l : base.layers) {
    j["layers"].push_back(descriptor_json(l.descriptor));
    m.blobs.push_back(std::move(l));
  }
  for (const auto& built : layers) {
    ImageBlob blob;
    blob.descriptor = built.written.descriptor;
    blob.descriptor.media_type = base.flavor.layer();
    blob.file = built.file;
    j["layers"].push_back(descriptor_json(blob.descriptor));
    m.blobs.push_back(std::move(blob));
  }
  m.body = j.dump();
  m.descriptor.media_type = base.flavor.manifest();
  m.descriptor.digest = registry::digest_of(m.body);
  m.descriptor.size = static_cast<std::int64_t>(m.body.size());
  m.descriptor.platform = base.platform;
  return m;
}

BuiltImage assemble_all(std::vector<BasePlatform> bases, const std::vector<NewLayer>& layers,
                        const std::function<std::string(Json config)>& make_config) {
  BuiltImage image;
  bool several = bases.size() > 1;
  Flavor flavor = bases.front().flavor;
  for (auto& base : bases) {
    if (!several) {
      base.platform.reset();
    }
    std::string config = make_config(std::move(base.config));
    image.manifests.push_back(assemble(std::move(base), std::move(config), layers));
  }
  if (several) {
    image.index = make_index(image.manifests, flavor);
  }
  return image;
}

} // namespace opm::image::detail
