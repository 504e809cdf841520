#include "render/render_cache.hpp"

#include "json/value.hpp"
#include "registry/cache_dir.hpp"
#include "registry/digest.hpp"
#include "util/base64.hpp"
#include "util/build_id.hpp"
#include "util/fs.hpp"

#include <algorithm>
#include <chrono>
#include <system_error>

namespace opm::render {

namespace {

// An entry is a checksum line, then a small CBOR header followed by the bundle's objects,
// byte for byte:
//   "opm-render-2\n", "sha256:<hex>\n" over the inputs (image digest and reference, each
//   followed by "\n") and the rest of the entry, the header's length (8 bytes,
//   little-endian), the header, the objects.
// An entry whose checksum does not match is rendered again.
// The header holds the bundle's fields, each property as [type, value, raw] (read back
// exactly: numbers keep their kind, property text its member order and escapes) or, for an
// olm.bundle.object property, as [type, index of its object], each related image as
// [name, image], the objects' lengths and which object is the CSV.
constexpr std::string_view k_magic = "opm-render-2\n";
constexpr auto k_max_entry_age = std::chrono::hours(24 * 30);

const Json* bundle_object_data(const catalog::Property& p) {
  if (p.type != catalog::k_prop_bundle_object || !p.value.is_object() || !p.raw.empty() ||
      p.value.size() != 1) {
    return nullptr;
  }
  auto it = p.value.find("data");
  return it != p.value.end() && it->is_string() ? &*it : nullptr;
}

std::optional<std::string> encode(const catalog::Bundle& b) {
  std::vector<std::string> encoded_objects;
  encoded_objects.reserve(b.objects.size());
  for (const auto& o : b.objects) {
    encoded_objects.push_back(util::base64_encode(o));
  }
  auto properties = Json::array();
  for (const auto& p : b.properties) {
    if (p.value.is_discarded()) {
      return std::nullopt;
    }
    if (const auto* data = bundle_object_data(p)) {
      auto it = std::find(encoded_objects.begin(), encoded_objects.end(),
                          data->get_ref<const std::string&>());
      if (it != encoded_objects.end()) {
        properties.push_back(Json::array({p.type, it - encoded_objects.begin()}));
        continue;
      }
    }
    properties.push_back(Json::array({p.type, p.value, p.raw}));
  }
  auto lengths = Json::array();
  for (const auto& o : b.objects) {
    lengths.push_back(o.size());
  }
  auto related = Json::array();
  for (const auto& r : b.related_images) {
    related.push_back(Json::array({r.name, r.image}));
  }
  Json header{{"name", b.name},
              {"package", b.package},
              {"image", b.image},
              {"properties", std::move(properties)},
              {"relatedImages", std::move(related)},
              {"objects", std::move(lengths)},
              {"csv", b.csv_index ? static_cast<std::int64_t>(*b.csv_index) : -1}};
  std::string head;
  Json::to_cbor(header, head);
  std::string out;
  std::uint64_t n = head.size();
  for (int i = 0; i < 8; ++i) {
    out += static_cast<char>((n >> (8 * i)) & 0xFF);
  }
  out += head;
  for (const auto& o : b.objects) {
    out += o;
  }
  return out;
}

std::string checksum(std::string_view image_digest, std::string_view ref, std::string_view body) {
  std::string input;
  input.reserve(image_digest.size() + ref.size() + body.size() + 2);
  input.append(image_digest).append("\n").append(ref).append("\n").append(body);
  return registry::digest_of(input);
}

std::string seal(std::string_view image_digest, std::string_view ref, std::string_view body) {
  std::string out(k_magic);
  out += checksum(image_digest, ref, body);
  out += '\n';
  out += body;
  return out;
}

// The body of an entry whose checksum matches its inputs and content.
std::optional<std::string_view> unseal(std::string_view bytes, std::string_view image_digest,
                                       std::string_view ref) {
  if (!bytes.starts_with(k_magic)) {
    return std::nullopt;
  }
  bytes.remove_prefix(k_magic.size());
  auto newline = bytes.find('\n');
  if (newline == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view sum = bytes.substr(0, newline);
  std::string_view body = bytes.substr(newline + 1);
  if (sum != checksum(image_digest, ref, body)) {
    return std::nullopt;
  }
  return body;
}

// Throws on malformed input (nlohmann or std exceptions); the caller treats it as a miss.
std::optional<catalog::Bundle> decode(std::string_view bytes) {
  if (bytes.size() < 8) {
    return std::nullopt;
  }
  std::uint64_t n = 0;
  for (int i = 0; i < 8; ++i) {
    n |= std::uint64_t{static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)])} << (8 * i);
  }
  bytes.remove_prefix(8);
  if (n > bytes.size()) {
    return std::nullopt;
  }
  auto doc = Json::from_cbor(bytes.substr(0, n), true, false);
  if (!doc.is_object()) {
    return std::nullopt;
  }
  bytes.remove_prefix(n);
  catalog::Bundle b;
  for (const auto& length : doc.at("objects")) {
    auto size = length.get<std::size_t>();
    if (size > bytes.size()) {
      return std::nullopt;
    }
    b.objects.emplace_back(bytes.substr(0, size));
    bytes.remove_prefix(size);
  }
  if (!bytes.empty()) {
    return std::nullopt;
  }
  b.name = doc.at("name").get<std::string>();
  b.package = doc.at("package").get<std::string>();
  b.image = doc.at("image").get<std::string>();
  for (const auto& p : doc.at("properties")) {
    if (p.size() == 2) {
      const auto& object = b.objects.at(p.at(1).get<std::size_t>());
      b.properties.push_back(
          {p.at(0).get<std::string>(), Json{{"data", util::base64_encode(object)}}});
    } else {
      b.properties.push_back({p.at(0).get<std::string>(), p.at(1), p.at(2).get<std::string>()});
    }
  }
  for (const auto& r : doc.at("relatedImages")) {
    b.related_images.push_back({r.at(0).get<std::string>(), r.at(1).get<std::string>()});
  }
  auto csv = doc.at("csv").get<std::int64_t>();
  if (csv >= 0) {
    if (static_cast<std::size_t>(csv) >= b.objects.size()) {
      return std::nullopt;
    }
    b.csv_index = static_cast<std::size_t>(csv);
  }
  return b;
}

} // namespace

RenderCache::RenderCache(std::filesystem::path dir)
    : m_root(std::move(dir)), m_dir(m_root / util::build_id()) {}

std::optional<RenderCache> RenderCache::open(std::filesystem::path dir) {
  if (util::build_id().empty() || dir.empty()) {
    return std::nullopt;
  }
  return RenderCache(std::move(dir));
}

std::filesystem::path RenderCache::entry(std::string_view image_digest,
                                         std::string_view ref) const {
  std::string key(image_digest);
  key += '\n';
  key += ref;
  std::string digest = registry::digest_of(key);
  return m_dir / (digest.substr(digest.find(':') + 1) + ".entry");
}

std::optional<catalog::DeclarativeConfig> RenderCache::find(std::string_view image_digest,
                                                            std::string_view ref) const {
  auto use = registry::CacheUse::shared(m_root.parent_path());
  auto path = entry(image_digest, ref);
  auto bytes = util::read_file(path);
  if (!bytes) {
    return std::nullopt;
  }
  std::error_code ec;
  std::filesystem::last_write_time(path, std::filesystem::file_time_type::clock::now(), ec);
  auto body = unseal(*bytes, image_digest, ref);
  if (!body) {
    return std::nullopt;
  }
  std::optional<catalog::Bundle> bundle;
  try {
    bundle = decode(*body);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (!bundle || bundle->image != ref) {
    return std::nullopt;
  }
  catalog::DeclarativeConfig cfg;
  cfg.bundles.push_back(std::move(*bundle));
  return cfg;
}

void RenderCache::store(std::string_view image_digest, std::string_view ref,
                        const catalog::DeclarativeConfig& cfg) const {
  bool one_bundle = cfg.bundles.size() == 1 && cfg.packages.empty() && cfg.channels.empty() &&
                    cfg.others.empty() && cfg.deprecations.empty();
  if (!one_bundle) {
    return;
  }
  auto bytes = encode(cfg.bundles.front());
  if (!bytes) {
    return;
  }
  auto use = registry::CacheUse::shared(m_root.parent_path());
  std::call_once(*m_pruned, [this] { tidy(); });
  std::error_code ec;
  std::filesystem::create_directories(m_dir, ec);
  (void)util::write_file_atomic(entry(image_digest, ref), seal(image_digest, ref, *bytes));
}

void RenderCache::tidy() const {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(m_root, ec)) {
    if (e.path().filename() != m_dir.filename()) {
      std::error_code ignored;
      std::filesystem::remove_all(e.path(), ignored);
    }
  }
  auto expired = std::filesystem::file_time_type::clock::now() - k_max_entry_age;
  for (const auto& e : std::filesystem::directory_iterator(m_dir, ec)) {
    std::error_code ignored;
    if (e.last_write_time(ignored) < expired) {
      std::filesystem::remove(e.path(), ignored);
    }
  }
}

} // namespace opm::render
