#include "registry/manifest.hpp"

#include "registry/reference.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace opm::registry {

namespace {

using nlohmann::json;

std::string_view base_type(std::string_view content_type) {
  auto semi = content_type.find(';');
  std::string_view t = content_type.substr(0, semi);
  while (!t.empty() && t.back() == ' ') {
    t.remove_suffix(1);
  }
  return t;
}

bool is_index_type(std::string_view t) { return t == media::oci_index || t == media::docker_list; }
bool is_image_type(std::string_view t) {
  return t == media::oci_manifest || t == media::docker_manifest;
}
bool is_schema1_type(std::string_view t) {
  return t == media::docker_schema1 || t == media::docker_schema1_signed;
}

Result<Descriptor> descriptor(const json& j, std::string_view what) {
  if (!j.is_object()) {
    return util::fail(Errc::invalid, fmt::format("invalid manifest: {} is not an object", what));
  }
  Descriptor d;
  d.media_type = j.value("mediaType", "");
  d.digest = j.value("digest", "");
  if (auto it = j.find("size"); it != j.end() && it->is_number_integer()) {
    d.size = it->get<std::int64_t>();
  }
  if (!is_valid_digest(d.digest)) {
    return util::fail(
        Errc::invalid,
        fmt::format("invalid manifest: {} has an invalid digest \"{}\"", what, d.digest));
  }
  if (d.size < 0) {
    return util::fail(Errc::invalid, fmt::format("invalid manifest: {} has no size", what));
  }
  if (auto p = j.find("platform"); p != j.end() && p->is_object()) {
    d.platform =
        Platform{p->value("os", ""), p->value("architecture", ""), p->value("variant", "")};
  }
  return d;
}

} // namespace

std::string Platform::string() const {
  return variant.empty() ? os + "/" + architecture : os + "/" + architecture + "/" + variant;
}

Result<Manifest> parse_manifest(std::string_view body, std::string_view content_type) {
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return util::fail(Errc::invalid, "invalid manifest: not a JSON object");
  }
  std::string header_type(base_type(content_type));
  std::string body_type = doc.value("mediaType", "");
  bool generic = header_type.empty() || header_type == "application/json" ||
                 header_type == "application/octet-stream" || header_type == "text/plain";
  if (is_schema1_type(header_type) ||
      (generic && (is_schema1_type(body_type) || doc.value("schemaVersion", 0) == 1))) {
    return util::fail(Errc::invalid, std::string(k_schema1_error));
  }
  std::string type = header_type;
  if (generic) {
    type = body_type;
    if (type.empty()) {
      type = doc.contains("manifests") ? std::string(media::oci_index)
             : doc.contains("layers")  ? std::string(media::oci_manifest)
                                       : std::string{};
    }
  } else if (!body_type.empty() && body_type != header_type) {
    return util::fail(Errc::invalid,
                      fmt::format("manifest media type \"{}\" does not match Content-Type \"{}\"",
                                  body_type, header_type));
  }
  if (!is_index_type(type) && !is_image_type(type)) {
    return util::fail(Errc::invalid, fmt::format("unsupported manifest media type \"{}\"", type));
  }
  if (doc.value("schemaVersion", 0) != 2) {
    return util::fail(Errc::invalid, "invalid manifest: schemaVersion must be 2");
  }
  Manifest m;
  m.media_type = type;
  if (is_index_type(type)) {
    m.kind = ManifestKind::index;
    auto it = doc.find("manifests");
    if (it == doc.end() || !it->is_array()) {
      return util::fail(Errc::invalid, "invalid manifest: index without manifests");
    }
    for (const auto& e : *it) {
      m.entries.push_back(OPM_TRY(descriptor(e, "index entry")));
    }
    return m;
  }
  m.kind = ManifestKind::image;
  auto cfg = doc.find("config");
  if (cfg == doc.end()) {
    return util::fail(Errc::invalid, "invalid manifest: no config descriptor");
  }
  m.config = OPM_TRY(descriptor(*cfg, "config"));
  if (auto layers = doc.find("layers"); layers != doc.end() && layers->is_array()) {
    for (const auto& l : *layers) {
      m.layers.push_back(OPM_TRY(descriptor(l, "layer")));
    }
  }
  return m;
}

Result<Platform> parse_platform(std::string_view text) {
  Platform p;
  auto first = text.find('/');
  if (first == std::string_view::npos || first == 0) {
    return util::fail(Errc::usage,
                      fmt::format("invalid platform \"{}\": want os/arch[/variant]", text));
  }
  p.os = std::string(text.substr(0, first));
  std::string_view rest = text.substr(first + 1);
  auto second = rest.find('/');
  p.architecture = std::string(rest.substr(0, second));
  if (second != std::string_view::npos) {
    p.variant = std::string(rest.substr(second + 1));
  }
  if (p.architecture.empty() || p.variant.find('/') != std::string::npos) {
    return util::fail(Errc::usage,
                      fmt::format("invalid platform \"{}\": want os/arch[/variant]", text));
  }
  if (p.architecture == "x86_64") {
    p.architecture = "amd64";
  } else if (p.architecture == "aarch64") {
    p.architecture = "arm64";
  }
  if (p.architecture == "arm64" && p.variant.empty()) {
    p.variant = "v8";
  }
  return p;
}

Platform host_platform() {
#if defined(__x86_64__)
  return {"linux", "amd64", ""};
#elif defined(__aarch64__)
  return {"linux", "arm64", "v8"};
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return {"linux", "ppc64le", ""};
#elif defined(__s390x__)
  return {"linux", "s390x", ""};
#elif defined(__arm__)
  return {"linux", "arm", "v7"};
#elif defined(__i386__)
  return {"linux", "386", ""};
#else
  return {"linux", "amd64", ""};
#endif
}

namespace {

// Lower is better; nullopt = no match.
std::optional<int> rank(const Platform& wanted, const Platform& have) {
  if (have.os != wanted.os || have.architecture != wanted.architecture) {
    return std::nullopt;
  }
  std::vector<std::string> variants;
  if (wanted.architecture == "arm64") {
    variants = {"v8", ""};
    if (!wanted.variant.empty() && wanted.variant != "v8") {
      variants.insert(variants.begin(), wanted.variant);
    }
  } else if (wanted.architecture == "arm") {
    static const char* k_arm[] = {"v8", "v7", "v6", "v5"};
    std::string from = wanted.variant.empty() ? "v7" : wanted.variant;
    bool on = false;
    for (const char* v : k_arm) {
      on = on || from == v;
      if (on) {
        variants.emplace_back(v);
      }
    }
    variants.emplace_back("");
  } else {
    if (!wanted.variant.empty()) {
      return have.variant == wanted.variant ? std::optional<int>(0) : std::nullopt;
    }
    return have.variant.empty() ? 0 : 1;
  }
  for (std::size_t i = 0; i < variants.size(); ++i) {
    if (variants[i] == have.variant) {
      return static_cast<int>(i);
    }
  }
  return std::nullopt;
}

bool known_child_type(std::string_view t) {
  return t.empty() || is_image_type(t) || is_index_type(t);
}

} // namespace

Result<Descriptor> choose_platform(const Manifest& index, const Platform& wanted,
                                   bool fallback_amd64) {
  const Descriptor* best = nullptr;
  int best_rank = 0;
  const Descriptor* unplatformed = nullptr;
  for (const auto& e : index.entries) {
    if (!known_child_type(e.media_type)) {
      continue;
    }
    if (!e.platform) {
      if (unplatformed == nullptr) {
        unplatformed = &e;
      }
      continue;
    }
    if (auto r = rank(wanted, *e.platform); r && (best == nullptr || *r < best_rank)) {
      best = &e;
      best_rank = *r;
    }
  }
  if (best == nullptr && fallback_amd64 && wanted.architecture != "amd64") {
    Platform amd64{"linux", "amd64", ""};
    for (const auto& e : index.entries) {
      if (known_child_type(e.media_type) && e.platform) {
        if (auto r = rank(amd64, *e.platform); r && (best == nullptr || *r < best_rank)) {
          best = &e;
          best_rank = *r;
        }
      }
    }
  }
  if (best == nullptr) {
    best = unplatformed;
  }
  if (best == nullptr) {
    return util::fail(
        Errc::not_found,
        fmt::format("no image found in {} for architecture \"{}\", variant \"{}\", "
                    "OS \"{}\"",
                    index.media_type == media::docker_list ? "manifest list" : "image index",
                    wanted.architecture, wanted.variant, wanted.os));
  }
  return *best;
}

Result<ImageConfig> parse_config(std::string_view body) {
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return util::fail(Errc::invalid, "invalid image config: not a JSON object");
  }
  ImageConfig c;
  if (auto cfg = doc.find("config"); cfg != doc.end() && cfg->is_object()) {
    if (auto labels = cfg->find("Labels"); labels != cfg->end() && labels->is_object()) {
      for (const auto& [k, v] : labels->items()) {
        if (v.is_string()) {
          c.labels.emplace(k, v.get<std::string>());
        }
      }
    }
  }
  if (auto rootfs = doc.find("rootfs"); rootfs != doc.end() && rootfs->is_object()) {
    if (auto ids = rootfs->find("diff_ids"); ids != rootfs->end() && ids->is_array()) {
      for (const auto& id : *ids) {
        if (id.is_string()) {
          c.diff_ids.push_back(id.get<std::string>());
        }
      }
    }
  }
  return c;
}

} // namespace opm::registry
