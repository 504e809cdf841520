#include "image/catalog_image.hpp"

#include "image/detail/assembly.hpp"
#include "registry/digest.hpp"
#include "registry/layer_writer.hpp"
#include "util/build_id.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stdlib.h>

#include <charconv>
#include <chrono>
#include <future>

namespace opm::image {

namespace fs = std::filesystem;
using detail::Flavor;
using detail::NewLayer;
using Json = nlohmann::json;

namespace {

const std::vector<std::string> k_entrypoint = {"/bin/opm"};
const std::vector<std::string> k_cmd = {"serve", "/configs", "--cache-dir=/tmp/cache"};
constexpr std::string_view k_catalog_history_comment = "opm alpha catalog build";

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

// Who owns what the builder stage's RUN wrote: the base config's numeric User ("1001" in
// upstream's opm image; group 0 unless given), which COPY --from keeps. Root for a user
// given by name, which only the image's /etc/passwd could resolve.
struct CacheOwner {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
};

std::optional<std::uint32_t> numeric_id(std::string_view text) {
  std::uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

CacheOwner cache_owner(const Json& config) {
  const Json* c = config.contains("config") ? &config["config"] : nullptr;
  if (c == nullptr || !c->is_object() || !c->contains("User") || !(*c)["User"].is_string()) {
    return {};
  }
  std::string user = (*c)["User"].get<std::string>();
  auto colon = user.find(':');
  auto uid = numeric_id(std::string_view(user).substr(0, colon));
  auto gid = colon == std::string::npos ? std::optional<std::uint32_t>(0)
                                        : numeric_id(std::string_view(user).substr(colon + 1));
  if (!uid || !gid) {
    return {};
  }
  return {*uid, *gid};
}

Result<registry::WrittenLayer> write_cache_layer(const CatalogBuild& build,
                                                 const CacheWriter& write_cache,
                                                 const fs::path& work, const Flavor& flavor,
                                                 CacheOwner owner) {
  fs::path cache_dir = work / "cache";
  OPM_TRY(write_cache(build.catalog_dir, cache_dir));
  std::error_code ec;
  auto mode = static_cast<std::uint32_t>(fs::status(cache_dir, ec).permissions()) & 07777;
  // /tmp of the base image is world-writable with the sticky bit.
  auto entries = OPM_TRY(registry::tree_entries(cache_dir, "tmp/cache", mode, {{"tmp", 01777}}));
  for (auto& e : entries) {
    if (e.name != "tmp") {
      e.uid = owner.uid;
      e.gid = owner.gid;
    }
  }
  return registry::write_layer(entries, build.created, work / "cache.tar.gz", flavor.layer());
}

// The /configs layer is compressed while serve writes its cache: the two take about as long.
Result<CatalogLayers> build_catalog_layers(const CatalogBuild& build,
                                           const CacheWriter& write_cache, const fs::path& work,
                                           const Flavor& flavor, CacheOwner owner) {
  CatalogLayers out;
  out.configs_file = work / "configs.tar.gz";
  out.cache_file = work / "cache.tar.gz";
  auto configs = std::async(std::launch::async,
                            [&] { return write_configs_layer(build, out.configs_file, flavor); });
  auto cache = write_cache_layer(build, write_cache, work, flavor, owner);
  auto configs_done = configs.get();
  out.configs = OPM_TRY(std::move(configs_done));
  out.cache = OPM_TRY(std::move(cache));
  return out;
}

// What the two catalog layers depend on: every entry of the catalog tree with its mode and
// bytes, the time, the layer media type and this opm build (which writes the cache).
Result<std::string> layers_key(const CatalogBuild& build, const Flavor& flavor, CacheOwner owner) {
  std::error_code ec;
  auto mode = static_cast<std::uint32_t>(fs::status(build.catalog_dir, ec).permissions()) & 07777;
  auto entries = OPM_TRY(registry::tree_entries(build.catalog_dir, "configs", mode));
  registry::Hasher key;
  key.update(fmt::format("catalog layers 2\n{}\n{}\n{}\n{}:{}\n", util::build_id(), build.created,
                         flavor.layer(), owner.uid, owner.gid));
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
  auto tree = util::TempTree::make(cache, ".new-");
  if (ec || !tree) {
    return;
  }
  fs::path staging = tree->path();
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
  if (ok && !ec) {
    (void)tree->release(); // it is the entry now
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
                                           const Flavor& flavor, CacheOwner owner) {
  if (build.layer_cache.empty()) {
    return build_catalog_layers(build, write_cache, work, flavor, owner);
  }
  auto key = OPM_TRY(layers_key(build, flavor, owner));
  if (auto hit = cached_layers(build.layer_cache / key, flavor)) {
    mark_used(build.layer_cache / key);
    return *hit;
  }
  auto built = OPM_TRY(build_catalog_layers(build, write_cache, work, flavor, owner));
  forget_unused_layers(build.layer_cache);
  keep_layers(built, build.layer_cache, key);
  return built;
}
// The base config with what the generated Dockerfile's final stage adds.
std::string catalog_config(const CatalogBuild& build, Json config, const CatalogLayers& layers,
                           bool scratch) {
  auto entry = [&](std::string created_by, bool empty) {
    return detail::history_entry(build.created, std::move(created_by), k_catalog_history_comment,
                                 empty);
  };
  std::vector<Json> history;
  if (!scratch) {
    history.push_back(entry("ENTRYPOINT [\"/bin/opm\"]", true));
    history.push_back(entry("CMD [\"serve\", \"/configs\", \"--cache-dir=/tmp/cache\"]", true));
  }
  history.push_back(entry("COPY --from=builder /configs /configs", false));
  history.push_back(entry("COPY --from=builder /tmp/cache /tmp/cache", false));
  std::string label_line = fmt::format("LABEL {}=/configs", k_configs_label);
  for (const auto& [k, v] : build.labels) {
    label_line += fmt::format(" \"{}\"=\"{}\"", k, v);
  }
  history.push_back(entry(label_line, true));
  Json& c = detail::prepare_config(config, build.created, history,
                                   {{layers.configs, {}}, {layers.cache, {}}});
  if (!scratch) {
    c["Entrypoint"] = k_entrypoint;
    c["Cmd"] = k_cmd;
  }
  Json& labels = c["Labels"];
  labels[std::string(k_configs_label)] = "/configs";
  for (const auto& [k, v] : build.labels) {
    labels[k] = v;
  }
  return config.dump();
}

} // namespace

Result<BuiltImage> build_catalog(const CatalogBuild& build, registry::Puller& images,
                                 const CacheWriter& write_cache, const fs::path& work) {
  std::optional<registry::Reference> canonical;
  auto bases = OPM_TRY(detail::read_bases(build.base_image, build.platform, images, canonical));
  auto layers = OPM_TRY(write_catalog_layers(build, write_cache, work, bases.front().flavor,
                                             cache_owner(bases.front().config)));
  bool scratch = build.base_image == "scratch";
  std::vector<NewLayer> added = {{layers.configs, layers.configs_file},
                                 {layers.cache, layers.cache_file}};
  auto image = detail::assemble_all(std::move(bases), added, [&](Json config) {
    return catalog_config(build, std::move(config), layers, scratch);
  });
  image.base_reference = canonical;
  return image;
}

} // namespace opm::image
