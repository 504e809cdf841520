#include "registry/detail/remote_source.hpp"

#include "registry/detail/resume.hpp"
#include "registry/digest.hpp"
#include "registry/pull_support.hpp"
#include "registry/reference.hpp"
#include "util/interrupt.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <system_error>

namespace opm::registry {

namespace fs = std::filesystem;

Result<PulledImage> RemoteSource::pull(const ImageLocation& at, PullParts parts,
                                       const PulledImage* earlier) {
  std::optional<PullSource> pinned;
  if (earlier != nullptr) {
    std::lock_guard lock(m_mutex);
    if (auto it = m_answered.find(at.text); it != m_answered.end()) {
      pinned = it->second;
      pinned->ref.tag.clear();
      pinned->ref.digest = earlier->digest;
    }
  }
  return pinned ? pull_from(at.text, *pinned, parts) : pull_any(at, parts);
}

Result<PulledImage> RemoteSource::pull_any(const ImageLocation& at, PullParts parts) {
  std::string_view text = at.text;
  const auto* c = OPM_TRY(conf());
  auto sources = OPM_TRY(c->sources(*at.remote()));
  std::vector<std::string> failures;
  std::optional<Error> last;
  for (const auto& src : sources) {
    auto r = pull_from(text, src, parts);
    if (r) {
      if (!src.ref.domain.empty()) {
        std::lock_guard lock(m_mutex);
        m_answered.insert_or_assign(at.text, src);
      }
      return r;
    }
    if (util::interrupted()) {
      return r;
    }
    failures.push_back(src.ref.to_string() + ": " + r.error().message());
    last = r.error();
    m_options.log.debug("pulling {} from {} failed: {}", text, src.ref.to_string(),
                        r.error().message());
  }
  if (failures.size() == 1) {
    return std::unexpected(*last);
  }
  std::string joined;
  for (const auto& f : failures) {
    joined += (joined.empty() ? "" : "; ") + f;
  }
  return util::fail(last->code(), fmt::format("pulling {}: every source failed: {}", text, joined));
}

Result<PulledImage> RemoteSource::pull_from(std::string_view text, const PullSource& src,
                                            PullParts parts) {
  Session* s = OPM_TRY(session());
  BlobStore* st = OPM_TRY(store());
  Target at{*s, *st, Endpoint{api_host(src.ref), src.ref.domain, src.insecure}, src.ref.path};

  PulledImage image;
  image.reference = std::string(text);
  image.source = src.ref.to_string();
  auto top = OPM_TRY(top_manifest(at, src.ref));
  auto manifest = OPM_TRY(parse_manifest(top.body, top.descriptor.media_type));
  top.descriptor.media_type = manifest.media_type;
  image.digest = top.descriptor.digest;
  image.media_type = top.descriptor.media_type;
  manifest = OPM_TRY(resolve_nested_index(
      std::move(manifest), image.digest, m_options.platform, image.image_digest,
      [&](const Descriptor& child) { return child_manifest(at, child); }));
  image.config_digest = manifest.config.digest;
  image.layers = manifest.layers;
  if (parts.config) {
    OPM_TRY(fetch_blobs(at, manifest, parts.layers, text));
    auto config_body = OPM_TRY(st->read(manifest.config.digest, k_manifest_body_cap));
    auto config = OPM_TRY(parse_config(config_body));
    image.labels = std::move(config.labels);
  } else if (parts.layers) {
    for (const auto& l : manifest.layers) {
      OPM_TRY(fetch_blob(at, l, text));
    }
  }
  st->note(src.ref.to_string(), top.descriptor);
  return image;
}

Result<RemoteSource::Fetched> RemoteSource::top_manifest(const Target& at, const Reference& ref) {
  if (!ref.digest.empty() && at.store.has(ref.digest, -1)) {
    Fetched cached;
    cached.body = OPM_TRY(at.store.read(ref.digest, k_manifest_body_cap));
    cached.descriptor.digest = ref.digest;
    cached.descriptor.size = static_cast<std::int64_t>(cached.body.size());
    return cached;
  }
  // A tag pulled before is asked for conditionally: an unchanged tag costs the registry
  // no manifest read and us no body.
  std::optional<Descriptor> known;
  if (ref.digest.empty()) {
    known = at.store.lookup(ref.to_string());
    if (known && !at.store.has(known->digest, known->size)) {
      known.reset();
    }
  }
  return fetch_manifest(at, ref.identifier(), ref.digest, known);
}

Result<Manifest> RemoteSource::child_manifest(const Target& at, Descriptor child) {
  std::string body;
  if (at.store.has(child.digest, child.size)) {
    body = OPM_TRY(at.store.read(child.digest, k_manifest_body_cap));
  } else {
    auto got = OPM_TRY(fetch_manifest(at, child.digest, child.digest));
    body = std::move(got.body);
    if (static_cast<std::int64_t>(body.size()) != child.size) {
      return util::fail(Errc::network, fmt::format("size mismatch for {}: got {} bytes, want {}",
                                                   child.digest, body.size(), child.size));
    }
    if (!got.descriptor.media_type.empty()) {
      child.media_type = got.descriptor.media_type;
    }
  }
  return parse_manifest(body, child.media_type);
}

Result<void> RemoteSource::fetch_blobs(const Target& at, const Manifest& manifest, bool with_layers,
                                       std::string_view ref) {
  // Layers download beside the config: one round trip less per image on slow links.
  bool need_layers = with_layers && std::any_of(manifest.layers.begin(), manifest.layers.end(),
                                                [&](const Descriptor& l) {
                                                  return !at.store.has(l.digest, l.size);
                                                });
  std::future<Result<void>> layers_done;
  if (need_layers) {
    layers_done = std::async(std::launch::async, [&]() -> Result<void> {
      for (const auto& l : manifest.layers) {
        OPM_TRY(fetch_blob(at, l, ref));
      }
      return {};
    });
  }
  auto config_fetched = fetch_blob(at, manifest.config, ref);
  if (layers_done.valid()) {
    OPM_TRY(layers_done.get());
  }
  return config_fetched;
}

Result<RemoteSource::Fetched> RemoteSource::fetch_manifest(const Target& at, const std::string& id,
                                                           const std::string& want_digest,
                                                           const std::optional<Descriptor>& known) {
  const std::string& repo = at.repo;
  Fetched got;
  Descriptor& out = got.descriptor;
  std::string& body = got.body;
  Request req;
  req.url = fmt::format("/v2/{}/manifests/{}", repo, id);
  req.set_header("Accept", std::string(media::accept));
  if (known) {
    req.set_header("If-None-Match", fmt::format("\"{}\"", known->digest));
  }
  req.max_body = k_manifest_body_cap;
  auto r = OPM_TRY(at.session.request(at.endpoint, repo, req));
  req.url = r.url;
  if (known && r.status == 304 && !r.broken()) {
    body = OPM_TRY(at.store.read(known->digest, k_manifest_body_cap));
    out = *known;
    return got;
  }
  if (r.body_too_large) {
    return util::fail(Errc::network,
                      fmt::format("manifest {} is larger than {} bytes", id, k_manifest_body_cap));
  }
  if (r.broken()) {
    return util::fail(Errc::network,
                      fmt::format("GET {}: {}", redact_url(req.url), r.transport_error));
  }
  if (r.status != 200) {
    return std::unexpected(Session::status_error(req, r));
  }
  body = std::move(r.body);
  auto header_digest = r.header("docker-content-digest");
  std::string algorithm_like = !want_digest.empty() ? want_digest
                               : header_digest      ? *header_digest
                                                    : std::string("sha256:");
  std::string actual = digest_of(body, algorithm_like);
  if (!want_digest.empty() && actual != want_digest) {
    return util::fail(Errc::network,
                      fmt::format("digest mismatch for {}: got {}", want_digest, actual));
  }
  if (header_digest && digest_of(body, *header_digest) != *header_digest) {
    return util::fail(Errc::network, fmt::format("digest mismatch for {}: got {}", *header_digest,
                                                 digest_of(body, *header_digest)));
  }
  out.digest = actual;
  out.size = static_cast<std::int64_t>(body.size());
  out.media_type = r.header("content-type").value_or("");
  if (auto semi = out.media_type.find(';'); semi != std::string::npos) {
    out.media_type.resize(semi);
  }
  // A schema 1 body is refused before it reaches the cache.
  if (out.media_type == media::docker_schema1 || out.media_type == media::docker_schema1_signed) {
    return util::fail(Errc::invalid, std::string(k_schema1_error));
  }
  OPM_TRY(at.store.put(out.digest, body));
  return got;
}

Result<BlobStore*> RemoteSource::store() {
  std::lock_guard lock(m_mutex);
  if (m_store) {
    return m_store.get();
  }
  if (!m_options.cache_disabled && !m_options.cache_dir.empty()) {
    auto opened = BlobStore::open(m_options.cache_dir);
    if (opened) {
      m_store = std::move(*opened);
      return m_store.get();
    }
    // A read-only or missing home must not stop a pull: upstream keeps no cache at all.
    m_options.log.warn("image cache {} cannot be used ({}); using a temporary one",
                       m_options.cache_dir.string(), opened.error().message());
  }
  m_temp_cache = OPM_TRY(make_temp_dir(m_options, "opm-cache-", "a temporary image cache"));
  m_store = OPM_TRY(BlobStore::open(m_temp_cache.path(), BlobStore::Sharing::private_to_process));
  return m_store.get();
}

Result<Session*> RemoteSource::session() {
  const auto* c = OPM_TRY(conf());
  std::lock_guard lock(m_mutex);
  if (!m_session) {
    m_session = std::make_unique<Session>(m_options);
    m_session->keychain().use_credential_helpers(c->credential_helpers());
  }
  return m_session.get();
}

Result<const RegistriesConf*> RemoteSource::conf() {
  std::lock_guard lock(m_mutex);
  if (!m_conf) {
    auto loaded = RegistriesConf::load(m_options);
    if (!loaded) {
      return std::unexpected(loaded.error());
    }
    m_conf = std::move(*loaded);
  }
  return &*m_conf;
}

Result<void> RemoteSource::fetch_blob(const Target& at, const Descriptor& d, std::string_view ref) {
  BlobStore& st = at.store;
  if (st.has(d.digest, d.size)) {
    return {};
  }
  Request req;
  req.url = fmt::format("/v2/{}/blobs/{}", at.repo, d.digest);
  req.blob = true;
  SendRequest send = [&](Request r) {
    return at.session.request(at.endpoint, at.repo, std::move(r));
  };
  std::function<void(std::uint64_t)> progress;
  if (m_options.progress) {
    progress = [&](std::uint64_t written) {
      m_options.progress({ref, d.digest, written, static_cast<std::uint64_t>(d.size)});
    };
  }
  auto once = [&]() {
    return st.ingest(d.digest, d.size, [&](BlobStore::Writer& w) -> Result<void> {
      auto r =
          OPM_TRY(download_resuming(send, req, d, w, m_options.retry, m_options.log, progress));
      if (r.status != 200 && r.status != 206) {
        return std::unexpected(Session::status_error(req, r));
      }
      return {};
    });
  };
  return again_if_damaged(once, d.digest, m_options.log);
}

Result<fs::path> RemoteSource::layer_root(const ImageLocation& /*at*/) { return cache_root(); }

Result<fs::path> RemoteSource::cache_root() {
  auto* s = OPM_TRY(store());
  return s->root();
}

void RemoteSource::finish_batch() {
  BlobStore* st = nullptr;
  bool temporary = false;
  {
    std::lock_guard lock(m_mutex);
    st = m_store.get();
    temporary = !m_temp_cache.empty();
  }
  if (st != nullptr && !temporary) {
    if (auto r = st->flush(); !r) {
      m_options.log.warn("recording pulled images in the cache index: {}", r.error().message());
    }
  }
}

void RemoteSource::reset() {
  finish_batch();
  std::lock_guard lock(m_mutex);
  m_answered.clear();
  m_store.reset();
  m_session.reset();
  m_temp_cache = util::TempTree();
}

} // namespace opm::registry
