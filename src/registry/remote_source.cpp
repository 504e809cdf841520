#include "registry/remote_source.hpp"

#include "registry/cancel.hpp"
#include "registry/digest.hpp"
#include "registry/pull_support.hpp"
#include "registry/reference.hpp"
#include "registry/resume.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <system_error>

namespace opm::registry {

namespace fs = std::filesystem;

Result<PulledImage> RemoteSource::pull(std::string_view text, bool with_layers, PullSource& used) {
  auto ref = OPM_TRY(parse_canonical(text));
  const auto* c = OPM_TRY(conf());
  auto sources = OPM_TRY(c->sources(ref));
  std::vector<std::string> failures;
  std::optional<Error> last;
  for (const auto& src : sources) {
    auto r = pull_from(text, src, with_layers);
    if (r) {
      used = src;
      return r;
    }
    if (interrupted()) {
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
                                            bool with_layers) {
  Session* s = OPM_TRY(session());
  BlobStore* st = OPM_TRY(store());
  Endpoint ep{api_host(src.ref), src.ref.domain, src.insecure};
  const std::string& repo = src.ref.path;

  PulledImage image;
  image.reference = std::string(text);
  image.source = src.ref.to_string();

  Descriptor top;
  std::string body;
  if (!src.ref.digest.empty() && st->has(src.ref.digest, -1)) {
    body = OPM_TRY(st->read(src.ref.digest, k_manifest_body_cap));
    top.digest = src.ref.digest;
    top.size = static_cast<std::int64_t>(body.size());
  } else {
    // A tag pulled before is asked for conditionally: an unchanged tag costs the registry
    // no manifest read and us no body.
    std::optional<Descriptor> known;
    if (src.ref.digest.empty()) {
      known = st->lookup(src.ref.to_string());
      if (known && !st->has(known->digest, known->size)) {
        known.reset();
      }
    }
    OPM_TRY(
        fetch_manifest(*s, *st, ep, repo, src.ref.identifier(), src.ref.digest, top, body, known));
  }
  auto manifest = OPM_TRY(parse_manifest(body, top.media_type));
  top.media_type = manifest.media_type;
  image.digest = top.digest;
  image.media_type = top.media_type;
  image.image_digest = top.digest;
  if (manifest.kind == ManifestKind::index) {
    auto child = OPM_TRY(platform_child(manifest, m_options.platform));
    std::string child_body;
    if (st->has(child.digest, child.size)) {
      child_body = OPM_TRY(st->read(child.digest, k_manifest_body_cap));
    } else {
      Descriptor got;
      OPM_TRY(fetch_manifest(*s, *st, ep, repo, child.digest, child.digest, got, child_body));
      if (static_cast<std::int64_t>(child_body.size()) != child.size) {
        return util::fail(Errc::network, fmt::format("size mismatch for {}: got {} bytes, want {}",
                                                     child.digest, child_body.size(), child.size));
      }
      child.media_type = got.media_type.empty() ? child.media_type : got.media_type;
    }
    manifest = OPM_TRY(parse_manifest(child_body, child.media_type));
    if (manifest.kind != ManifestKind::image) {
      return util::fail(Errc::invalid,
                        fmt::format("index entry {} is not an image manifest", child.digest));
    }
    image.image_digest = child.digest;
  }
  image.config_digest = manifest.config.digest;
  image.layers = manifest.layers;
  // Layers download beside the config: one round trip less per image on slow links.
  bool need_layers =
      with_layers && std::any_of(manifest.layers.begin(), manifest.layers.end(),
                                 [&](const Descriptor& l) { return !st->has(l.digest, l.size); });
  std::future<Result<void>> layers_done;
  if (need_layers) {
    layers_done = std::async(std::launch::async, [&]() -> Result<void> {
      for (const auto& l : manifest.layers) {
        OPM_TRY(fetch_blob(*s, *st, ep, repo, l, text));
      }
      return {};
    });
  }
  auto config_fetched = fetch_blob(*s, *st, ep, repo, manifest.config, text);
  if (layers_done.valid()) {
    OPM_TRY(layers_done.get());
  }
  OPM_TRY(std::move(config_fetched));
  auto config_body = OPM_TRY(st->read(manifest.config.digest, k_manifest_body_cap));
  auto config = OPM_TRY(parse_config(config_body));
  image.labels = std::move(config.labels);
  st->note(src.ref.to_string(), top);
  return image;
}

Result<void> RemoteSource::fetch_manifest(Session& s, BlobStore& st, const Endpoint& ep,
                                          const std::string& repo, const std::string& id,
                                          const std::string& want_digest, Descriptor& out,
                                          std::string& body,
                                          const std::optional<Descriptor>& known) {
  Request req;
  req.url = fmt::format("/v2/{}/manifests/{}", repo, id);
  req.set_header("Accept", std::string(media::accept));
  if (known) {
    req.set_header("If-None-Match", fmt::format("\"{}\"", known->digest));
  }
  req.max_body = k_manifest_body_cap;
  auto r = OPM_TRY(s.request(ep, repo, req));
  req.url = r.url;
  if (known && r.status == 304 && !r.broken()) {
    body = OPM_TRY(st.read(known->digest, k_manifest_body_cap));
    out = *known;
    return {};
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
  OPM_TRY(st.put(out.digest, body));
  return {};
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
  m_store = OPM_TRY(BlobStore::open(m_temp_cache));
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

Result<void> RemoteSource::fetch_blob(Session& s, BlobStore& st, const Endpoint& ep,
                                      const std::string& repo, const Descriptor& d,
                                      std::string_view ref) {
  if (st.has(d.digest, d.size)) {
    return {};
  }
  Request req;
  req.url = fmt::format("/v2/{}/blobs/{}", repo, d.digest);
  req.blob = true;
  SendRequest send = [&](Request r) { return s.request(ep, repo, std::move(r)); };
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

Result<fs::path> RemoteSource::cache_root() {
  auto* s = OPM_TRY(store());
  return s->root();
}

void RemoteSource::flush_index() {
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
  flush_index();
  std::lock_guard lock(m_mutex);
  m_store.reset();
  m_session.reset();
  if (!m_temp_cache.empty()) {
    std::error_code ec;
    fs::remove_all(m_temp_cache, ec);
    unregister_temp_path(m_temp_cache);
    m_temp_cache.clear();
  }
}

} // namespace opm::registry
