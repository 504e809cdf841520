#include "image/catalog_image.hpp"

#include "registry/digest.hpp"
#include "registry/layer_writer.hpp"
#include "registry/reference.hpp"
#include "util/build_id.hpp"
#include "util/fs.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stdlib.h>

#include <chrono>
#include <ctime>
#include <future>

namespace opm::image {

namespace fs = std::filesystem;
using registry::Descriptor;
using Json = nlohmann::json;

namespace {

constexpr std::string_view k_oci_config = "application/vnd.oci.image.config.v1+json";
constexpr std::string_view k_oci_layer = "application/vnd.oci.image.layer.v1.tar+gzip";
constexpr std::string_view k_docker_config = "application/vnd.docker.container.image.v1+json";
constexpr std::string_view k_docker_layer = "application/vnd.docker.image.rootfs.diff.tar.gzip";
const std::vector<std::string> k_entrypoint = {"/bin/opm"};
const std::vector<std::string> k_cmd = {"serve", "/configs", "--cache-dir=/tmp/cache"};

// Manifests in the base's own format, so that a Docker base stays a Docker image.
struct Flavor {
  bool docker = false;
  [[nodiscard]] std::string manifest() const {
    return std::string(docker ? registry::media::docker_manifest : registry::media::oci_manifest);
  }
  [[nodiscard]] std::string index() const {
    return std::string(docker ? registry::media::docker_list : registry::media::oci_index);
  }
  [[nodiscard]] std::string config() const {
    return std::string(docker ? k_docker_config : k_oci_config);
  }
  [[nodiscard]] std::string layer() const {
    return std::string(docker ? k_docker_layer : k_oci_layer);
  }
};

std::string rfc3339(std::int64_t seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

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

// The two layers every platform shares.
struct CatalogLayers {
  registry::WrittenLayer configs;
  registry::WrittenLayer cache;
  fs::path configs_file;
  fs::path cache_file;
};

Result<registry::WrittenLayer> write_configs_layer(const CatalogBuild& build, const fs::path& file,
                                                   const Flavor& flavor) {
  // The copy keeps every mode, the directory's own included: serve's cache digest covers
  // the modes of the catalog tree, so the image must show the tree the cache was made from.
  std::error_code ec;
  auto mode = static_cast<std::uint32_t>(fs::status(build.catalog_dir, ec).permissions()) & 07777;
  auto entries = OPM_TRY(registry::tree_entries(build.catalog_dir, "configs", mode));
  return registry::write_layer(entries, build.created, file, flavor.layer());
}

Result<registry::WrittenLayer> write_cache_layer(const CatalogBuild& build,
                                                 const CacheWriter& write_cache,
                                                 const fs::path& work, const Flavor& flavor) {
  fs::path cache_dir = work / "cache";
  OPM_TRY(write_cache(build.catalog_dir, cache_dir));
  std::error_code ec;
  auto mode = static_cast<std::uint32_t>(fs::status(cache_dir, ec).permissions()) & 07777;
  // /tmp of the base image is world-writable with the sticky bit.
  auto entries = OPM_TRY(registry::tree_entries(cache_dir, "tmp/cache", mode, {{"tmp", 01777}}));
  return registry::write_layer(entries, build.created, work / "cache.tar.gz", flavor.layer());
}

// The /configs layer is compressed while serve writes its cache: the two take about as long.
Result<CatalogLayers> build_catalog_layers(const CatalogBuild& build,
                                           const CacheWriter& write_cache, const fs::path& work,
                                           const Flavor& flavor) {
  CatalogLayers out;
  out.configs_file = work / "configs.tar.gz";
  out.cache_file = work / "cache.tar.gz";
  auto configs = std::async(std::launch::async,
                            [&] { return write_configs_layer(build, out.configs_file, flavor); });
  auto cache = write_cache_layer(build, write_cache, work, flavor);
  auto configs_done = configs.get();
  out.configs = OPM_TRY(std::move(configs_done));
  out.cache = OPM_TRY(std::move(cache));
  return out;
}

// What the two catalog layers depend on: every entry of the catalog tree with its mode and
// bytes, the time, the layer media type and this opm build (which writes the cache).
Result<std::string> layers_key(const CatalogBuild& build, const Flavor& flavor) {
  std::error_code ec;
  auto mode = static_cast<std::uint32_t>(fs::status(build.catalog_dir, ec).permissions()) & 07777;
  auto entries = OPM_TRY(registry::tree_entries(build.catalog_dir, "configs", mode));
  registry::Hasher key;
  key.update(fmt::format("catalog layers 1\n{}\n{}\n{}\n", util::build_id(), build.created,
                         flavor.layer()));
  for (const auto& e : entries) {
    std::string content;
    if (e.type == registry::LayerEntry::Type::file) {
      content = registry::digest_of(OPM_TRY(util::read_file(e.source)));
    }
    // Lengths first, so that no name or link can be mistaken for another field.
    key.update(fmt::format("{} {} {} {:o} {} {} {}\n", e.name.size(), e.name,
                           static_cast<int>(e.type), e.mode, e.link.size(), e.link, content));
  }
  return std::string(registry::digest_hex(key.finish()));
}

Json layer_json(const registry::WrittenLayer& l) {
  return {{"digest", l.descriptor.digest}, {"size", l.descriptor.size}, {"diff_id", l.diff_id}};
}

std::optional<registry::WrittenLayer> layer_from(const Json& j, const fs::path& file,
                                                 const Flavor& flavor) {
  std::error_code ec;
  if (!j.is_object() || !j.contains("digest") || !j.contains("size") || !j.contains("diff_id")) {
    return std::nullopt;
  }
  registry::WrittenLayer l;
  l.descriptor.digest = j["digest"].get<std::string>();
  l.descriptor.size = j["size"].get<std::int64_t>();
  l.descriptor.media_type = flavor.layer();
  l.diff_id = j["diff_id"].get<std::string>();
  if (fs::file_size(file, ec) != static_cast<std::uintmax_t>(l.descriptor.size) || ec) {
    return std::nullopt;
  }
  return l;
}

std::optional<CatalogLayers> cached_layers(const fs::path& entry, const Flavor& flavor) {
  auto text = util::read_file(entry / "layers.json");
  if (!text) {
    return std::nullopt;
  }
  auto j = Json::parse(*text, nullptr, false);
  if (!j.is_object()) {
    return std::nullopt;
  }
  CatalogLayers out;
  out.configs_file = entry / "configs.tar.gz";
  out.cache_file = entry / "cache.tar.gz";
  auto configs = layer_from(j.value("configs", Json()), out.configs_file, flavor);
  auto cache = layer_from(j.value("cache", Json()), out.cache_file, flavor);
  if (!configs || !cache) {
    return std::nullopt;
  }
  out.configs = *configs;
  out.cache = *cache;
  return out;
}

// Keeps freshly built layers for the next build: a complete entry appears at once (rename),
// or not at all. Failing to keep them is no failure of the build.
void keep_layers(const CatalogLayers& layers, const fs::path& cache, const std::string& key) {
  std::error_code ec;
  fs::create_directories(cache, ec);
  std::string pattern = (cache / ".new-XXXXXX").string();
  if (ec || ::mkdtemp(pattern.data()) == nullptr) {
    return;
  }
  fs::path staging = pattern;
  bool ok = true;
  for (const auto& [from, name] : {std::pair{layers.configs_file, "configs.tar.gz"},
                                   std::pair{layers.cache_file, "cache.tar.gz"}}) {
    fs::create_hard_link(from, staging / name, ec);
    if (ec) {
      ec.clear();
      fs::copy_file(from, staging / name, ec);
    }
    ok = ok && !ec;
  }
  Json j = {{"configs", layer_json(layers.configs)}, {"cache", layer_json(layers.cache)}};
  ok = ok && util::write_file_atomic(staging / "layers.json", j.dump()).has_value();
  if (ok) {
    fs::rename(staging, cache / key, ec);
  }
  if (!ok || ec) {
    fs::remove_all(staging, ec);
  }
}

// Kept layers not used for this long are removed when new ones are kept.
constexpr auto k_unused_layers_lifetime = std::chrono::hours(24 * 7);

// A hit is marked used by its layers.json's modification time.
void mark_used(const fs::path& entry) {
  std::error_code ec;
  fs::last_write_time(entry / "layers.json", fs::file_time_type::clock::now(), ec);
}

void forget_unused_layers(const fs::path& cache) {
  std::error_code ec;
  auto oldest = fs::file_time_type::clock::now() - k_unused_layers_lifetime;
  for (fs::directory_iterator it(cache, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code stat_ec;
    auto used = fs::last_write_time(it->path() / "layers.json", stat_ec);
    bool stale_staging = it->path().filename().string().starts_with(".new-") &&
                         fs::last_write_time(it->path(), stat_ec) < oldest;
    if ((!stat_ec && used < oldest) || stale_staging) {
      fs::remove_all(it->path(), stat_ec);
    }
  }
}

Result<CatalogLayers> write_catalog_layers(const CatalogBuild& build,
                                           const CacheWriter& write_cache, const fs::path& work,
                                           const Flavor& flavor) {
  if (build.layer_cache.empty()) {
    return build_catalog_layers(build, write_cache, work, flavor);
  }
  auto key = OPM_TRY(layers_key(build, flavor));
  if (auto hit = cached_layers(build.layer_cache / key, flavor)) {
    mark_used(build.layer_cache / key);
    return *hit;
  }
  auto built = OPM_TRY(build_catalog_layers(build, write_cache, work, flavor));
  forget_unused_layers(build.layer_cache);
  keep_layers(built, build.layer_cache, key);
  return built;
}

Json history_entry(const CatalogBuild& build, std::string created_by, bool empty) {
  Json h = {{"created", rfc3339(build.created)},
            {"created_by", std::move(created_by)},
            {"comment", "opm alpha catalog build"}};
  if (empty) {
    h["empty_layer"] = true;
  }
  return h;
}

// The base config with what the generated Dockerfile's final stage adds.
std::string catalog_config(const CatalogBuild& build, Json config, const CatalogLayers& layers,
                           bool scratch) {
  config["created"] = rfc3339(build.created);
  Json& c = config["config"];
  if (!c.is_object()) {
    c = Json::object();
  }
  Json& history = config["history"];
  if (!history.is_array()) {
    history = Json::array();
  }
  if (!scratch) {
    c["Entrypoint"] = k_entrypoint;
    c["Cmd"] = k_cmd;
    history.push_back(history_entry(build, "ENTRYPOINT [\"/bin/opm\"]", true));
    history.push_back(
        history_entry(build, "CMD [\"serve\", \"/configs\", \"--cache-dir=/tmp/cache\"]", true));
  }
  history.push_back(history_entry(build, "COPY --from=builder /configs /configs", false));
  history.push_back(history_entry(build, "COPY --from=builder /tmp/cache /tmp/cache", false));
  Json& labels = c["Labels"];
  if (!labels.is_object()) {
    labels = Json::object();
  }
  labels[std::string(k_configs_label)] = "/configs";
  std::string label_line = fmt::format("LABEL {}=/configs", k_configs_label);
  for (const auto& [k, v] : build.labels) {
    labels[k] = v;
    label_line += fmt::format(" \"{}\"=\"{}\"", k, v);
  }
  history.push_back(history_entry(build, label_line, true));
  Json& rootfs = config["rootfs"];
  if (!rootfs.is_object()) {
    rootfs = {{"type", "layers"}};
  }
  Json& diff_ids = rootfs["diff_ids"];
  if (!diff_ids.is_array()) {
    diff_ids = Json::array();
  }
  diff_ids.push_back(layers.configs.diff_id);
  diff_ids.push_back(layers.cache.diff_id);
  return config.dump();
}

// One platform of the base: its config, its layers as files, its manifest format.
struct BasePlatform {
  Json config;
  std::vector<ImageBlob> layers;
  Flavor flavor;
  std::optional<registry::Platform> platform;
};

Result<BasePlatform> read_base(registry::Puller& images, const std::string& ref) {
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
                      fmt::format("base image {}: config is not a JSON object", ref));
  }
  for (const auto& layer : manifest.layers) {
    ImageBlob blob;
    blob.descriptor = layer;
    blob.file = OPM_TRY(images.blob_file(ref, layer.digest));
    base.layers.push_back(std::move(blob));
  }
  return base;
}

BasePlatform scratch_base(const CatalogBuild& build) {
  BasePlatform base;
  auto platform = registry::parse_platform(build.platform);
  registry::Platform p = platform ? *platform : registry::host_platform();
  base.config = {{"architecture", p.architecture}, {"os", p.os}};
  if (!p.variant.empty()) {
    base.config["variant"] = p.variant;
  }
  return base;
}

// The image manifests of every platform a multi-platform base lists, by digest.
Result<std::vector<std::pair<std::string, registry::Platform>>>
platform_refs(registry::Puller& images, const std::string& ref, const registry::PulledImage& top) {
  std::vector<std::pair<std::string, registry::Platform>> out;
  auto index_file = OPM_TRY(images.blob_file(ref, top.digest));
  auto index = OPM_TRY(registry::parse_manifest(OPM_TRY(util::read_file(index_file)), ""));
  auto name = OPM_TRY(registry::parse_canonical(ref));
  for (const auto& entry : index.entries) {
    // Attestations and other non-runnable entries carry an "unknown" platform.
    if (!entry.platform || entry.platform->os == "unknown" || entry.platform->os.empty()) {
      continue;
    }
    auto child = name;
    child.tag.clear();
    child.digest = entry.digest;
    out.emplace_back(child.to_string(), *entry.platform);
  }
  return out;
}

ImageManifest assemble(const CatalogBuild& build, BasePlatform base, const CatalogLayers& layers,
                       bool scratch) {
  ImageManifest m;
  ImageBlob config = memory_blob(base.flavor.config(),
                                 catalog_config(build, std::move(base.config), layers, scratch));
  Json j = {{"schemaVersion", 2}, {"mediaType", base.flavor.manifest()}};
  j["config"] = descriptor_json(config.descriptor);
  j["layers"] = Json::array();
  m.blobs.push_back(std::move(config));
  for (auto& l : base.layers) {
    j["layers"].push_back(descriptor_json(l.descriptor));
    m.blobs.push_back(std::move(l));
  }
  for (const auto* built : {&layers.configs, &layers.cache}) {
    ImageBlob blob;
    blob.descriptor = built->descriptor;
    blob.descriptor.media_type = base.flavor.layer();
    blob.file = built == &layers.configs ? layers.configs_file : layers.cache_file;
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

Result<std::vector<BasePlatform>> read_bases(const CatalogBuild& build, registry::Puller& images,
                                             std::string& canonical) {
  std::vector<BasePlatform> bases;
  if (build.base_image == "scratch") {
    bases.push_back(scratch_base(build));
    return bases;
  }
  bool registry_ref =
      !build.base_image.starts_with("oci:") && !build.base_image.starts_with("docker-archive:");
  auto top = OPM_TRY(images.pull(build.base_image));
  bool multi = top.digest != top.image_digest;
  if (registry_ref) {
    canonical = build.base_image;
  }
  if (!multi || !build.platform.empty() || !registry_ref) {
    auto base = OPM_TRY(read_base(images, build.base_image));
    if (multi) {
      auto p = registry::parse_platform(build.platform);
      if (p) {
        base.platform = *p;
      }
    }
    bases.push_back(std::move(base));
    return bases;
  }
  for (auto& [ref, platform] : OPM_TRY(platform_refs(images, build.base_image, top))) {
    auto base = OPM_TRY(read_base(images, ref));
    base.platform = platform;
    bases.push_back(std::move(base));
  }
  if (bases.empty()) {
    return util::fail(Errc::invalid,
                      fmt::format("base image {} lists no platform", build.base_image));
  }
  return bases;
}

} // namespace

Result<BuiltImage> build_catalog(const CatalogBuild& build, registry::Puller& images,
                                 const CacheWriter& write_cache, const fs::path& work) {
  BuiltImage image;
  bool scratch = build.base_image == "scratch";
  auto bases = OPM_TRY(read_bases(build, images, image.base_reference));
  auto layers = OPM_TRY(write_catalog_layers(build, write_cache, work, bases.front().flavor));
  bool several = bases.size() > 1;
  Flavor flavor = bases.front().flavor;
  for (auto& base : bases) {
    if (!several) {
      base.platform.reset();
    }
    image.manifests.push_back(assemble(build, std::move(base), layers, scratch));
  }
  if (several) {
    image.index = make_index(image.manifests, flavor);
  }
  return image;
}

} // namespace opm::image
