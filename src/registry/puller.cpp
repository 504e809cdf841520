#include "registry/puller.hpp"

#include "registry/cancel.hpp"
#include "registry/client.hpp"
#include "registry/digest.hpp"
#include "registry/layout.hpp"
#include "registry/reference.hpp"
#include "registry/registries_conf.hpp"
#include "registry/unpack.hpp"
#include "util/fs.hpp"
#include "util/parallel.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <future>
#include <mutex>
#include <optional>
#include <system_error>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t k_resume_progress = 1U << 20;

bool is_digest_error(const Error& e) {
  return e.message().starts_with("digest mismatch") || e.message().starts_with("size mismatch") ||
         e.message().starts_with("blob is larger");
}

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

// Parses "bytes <start>-<end>/<total>".
bool content_range_ok(const std::optional<std::string>& h, std::uint64_t start, std::int64_t size) {
  if (!h) {
    return false;
  }
  return *h == fmt::format("bytes {}-{}/{}", start, size - 1, size);
}

} // namespace

class RegistryPuller final : public Puller {
public:
  explicit RegistryPuller(Options options) : m_options(std::move(options)) {}
  ~RegistryPuller() override { destroy(); }
  RegistryPuller(const RegistryPuller&) = delete;
  RegistryPuller& operator=(const RegistryPuller&) = delete;

  Result<PulledImage> pull(std::string_view ref) override {
    InterruptScope scope;
    return resolve(ref, true);
  }

  Result<Labels> labels(std::string_view ref) override {
    InterruptScope scope;
    auto image = OPM_TRY(resolve(ref, false));
    return image.labels;
  }

  Result<void> unpack(std::string_view ref, const fs::path& dir,
                      const std::vector<std::string>& prefixes) override {
    InterruptScope scope;
    auto image = OPM_TRY(resolve(ref, true));
    std::vector<LayerFile> files;
    files.reserve(image.layers.size());
    fs::path blobs_root = OPM_TRY(layer_root(ref));
    for (const auto& l : image.layers) {
      files.push_back({blobs_root / "blobs" / std::string(digest_algorithm(l.digest)) /
                           std::string(digest_hex(l.digest)),
                       l.digest, l.media_type});
    }
    auto r = unpack_layers(files, dir, m_options.limits, m_options.log, prefixes);
    if (!r) {
      return std::unexpected(std::move(r).error().wrap(fmt::format("unpacking {}", ref)));
    }
    return {};
  }

  std::vector<Result<PulledImage>> pull_all(std::span<const std::string> refs) override {
    InterruptScope scope;
    std::vector<std::optional<Result<PulledImage>>> slots(refs.size());
    util::run_indexed(refs.size(), std::clamp<std::size_t>(m_options.jobs, 1, 64),
                      [&](std::size_t i) { slots[i].emplace(resolve(refs[i], true)); });
    flush_index();
    std::vector<Result<PulledImage>> out;
    out.reserve(refs.size());
    for (auto& s : slots) {
      out.push_back(std::move(*s));
    }
    return out;
  }

  void destroy() override {
    flush_index();
    std::lock_guard lock(m_mutex);
    m_store.reset();
    m_session.reset();
    m_memo.clear();
    if (!m_temp_cache.empty()) {
      std::error_code ec;
      fs::remove_all(m_temp_cache, ec);
      unregister_temp_path(m_temp_cache);
      m_temp_cache.clear();
    }
    for (const auto& d : m_archive_dirs) {
      std::error_code ec;
      fs::remove_all(d.second, ec);
      unregister_temp_path(d.second);
    }
    m_archive_dirs.clear();
  }

private:
  void flush_index() {
    BlobStore* st = nullptr;
    {
      std::lock_guard lock(m_mutex);
      st = m_store.get();
    }
    if (st != nullptr && m_temp_cache.empty()) {
      if (auto r = st->flush(); !r) {
        m_options.log.warn("recording pulled images in the cache index: {}", r.error().message());
      }
    }
  }

  // A new `<TMPDIR>/<prefix>XXXXXX`, removed by an interrupt until it is unregistered.
  Result<fs::path> make_temp_dir(std::string_view prefix, std::string_view what) const {
    fs::path tmp = m_options.getenv("TMPDIR").value_or("/tmp");
    std::string pattern = (tmp / (std::string(prefix) + "XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return util::fail(Errc::io, fmt::format("creating {} in {}: {}", what, tmp.string(),
                                              util::errno_text(errno)));
    }
    register_temp_path(pattern);
    return fs::path(pattern);
  }

  // The entry of an index for the wanted platform (--platform, else this host's).
  Result<Descriptor> chosen_child(const Manifest& index) const {
    auto wanted = m_options.platform.empty() ? Result<Platform>(host_platform())
                                             : parse_platform(m_options.platform);
    if (!wanted) {
      return std::unexpected(wanted.error());
    }
    return choose_platform(index, *wanted, m_options.platform.empty());
  }

  // ---- shared state, built on first use -------------------------------------------
  Result<BlobStore*> store() {
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
    m_temp_cache = OPM_TRY(make_temp_dir("opm-cache-", "a temporary image cache"));
    m_store = OPM_TRY(BlobStore::open(m_temp_cache));
    return m_store.get();
  }

  Result<Session*> session() {
    const auto* c = OPM_TRY(conf());
    std::lock_guard lock(m_mutex);
    if (!m_session) {
      m_session = std::make_unique<Session>(m_options);
      m_session->keychain().use_credential_helpers(c->credential_helpers());
    }
    return m_session.get();
  }

  Result<const RegistriesConf*> conf() {
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

  Result<fs::path> layer_root(std::string_view ref) {
    if (ref.starts_with("oci:")) {
      return split_layout(ref).first;
    }
    if (ref.starts_with("docker-archive:")) {
      std::lock_guard lock(m_mutex);
      auto it = m_archive_dirs.find(std::string(ref.substr(15)));
      if (it != m_archive_dirs.end()) {
        std::error_code ec;
        fs::path inner = it->second / "x";
        if (fs::exists(inner / "index.json", ec) && !fs::exists(inner / "manifest.json", ec)) {
          return inner;
        }
        return it->second;
      }
    }
    auto* s = OPM_TRY(store());
    return s->root();
  }

  // ---- entry point -------------------------------------------------------------------
  Result<PulledImage> resolve(std::string_view ref, bool with_layers) {
    std::string key(ref);
    std::optional<PullSource> pinned;
    {
      std::lock_guard lock(m_mutex);
      if (auto it = m_memo.find(key); it != m_memo.end()) {
        if (it->second.full || !with_layers) {
          return it->second.image;
        }
        // Labels were read before: fetch the layers of the very manifest they came from,
        // without asking for the tag again.
        pinned = it->second.source;
        if (pinned) {
          pinned->ref.tag.clear();
          pinned->ref.digest = it->second.image.digest;
        }
      }
    }
    PullSource used;
    Result<PulledImage> r = ref.starts_with("oci:")              ? from_layout(ref)
                            : ref.starts_with("docker-archive:") ? from_archive(ref)
                            : pinned ? from_source(ref, *pinned, with_layers)
                                     : from_registry(ref, with_layers, used);
    if (r) {
      std::lock_guard lock(m_mutex);
      auto& m = m_memo[key];
      m.image = *r;
      m.full = m.full || with_layers;
      if (!pinned && !used.ref.domain.empty()) {
        m.source = used;
      }
    }
    return r;
  }

  // ---- registries ----------------------------------------------------------------------
  Result<PulledImage> from_registry(std::string_view text, bool with_layers, PullSource& used) {
    auto ref = OPM_TRY(parse_canonical(text));
    const auto* c = OPM_TRY(conf());
    auto sources = OPM_TRY(c->sources(ref));
    std::vector<std::string> failures;
    std::optional<Error> last;
    for (const auto& src : sources) {
      auto r = from_source(text, src, with_layers);
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
    return util::fail(last->code(),
                      fmt::format("pulling {}: every source failed: {}", text, joined));
  }

  Result<PulledImage> from_source(std::string_view text, const PullSource& src, bool with_layers) {
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
      OPM_TRY(fetch_manifest(*s, *st, ep, repo, src.ref.identifier(), src.ref.digest, top, body,
                             known));
    }
    auto manifest = OPM_TRY(parse_manifest(body, top.media_type));
    top.media_type = manifest.media_type;
    image.digest = top.digest;
    image.media_type = top.media_type;
    image.image_digest = top.digest;
    if (manifest.kind == ManifestKind::index) {
      auto child = OPM_TRY(chosen_child(manifest));
      std::string child_body;
      if (st->has(child.digest, child.size)) {
        child_body = OPM_TRY(st->read(child.digest, k_manifest_body_cap));
      } else {
        Descriptor got;
        OPM_TRY(fetch_manifest(*s, *st, ep, repo, child.digest, child.digest, got, child_body));
        if (static_cast<std::int64_t>(child_body.size()) != child.size) {
          return util::fail(Errc::network,
                            fmt::format("size mismatch for {}: got {} bytes, want {}", child.digest,
                                        child_body.size(), child.size));
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

  Result<void> fetch_manifest(Session& s, BlobStore& st, const Endpoint& ep,
                              const std::string& repo, const std::string& id,
                              const std::string& want_digest, Descriptor& out, std::string& body,
                              const std::optional<Descriptor>& known = std::nullopt) {
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
      return util::fail(Errc::network, fmt::format("manifest {} is larger than {} bytes", id,
                                                   k_manifest_body_cap));
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

  Result<void> fetch_blob(Session& s, BlobStore& st, const Endpoint& ep, const std::string& repo,
                          const Descriptor& d, std::string_view ref) {
    if (st.has(d.digest, d.size)) {
      return {};
    }
    auto once = [&]() {
      return st.ingest(d.digest, d.size, [&](BlobStore::Writer& w) -> Result<void> {
        int breaks = 0;
        std::uint64_t at_last_break = 0;
        for (;;) {
          std::uint64_t offset = w.written();
          Request req;
          req.url = fmt::format("/v2/{}/blobs/{}", repo, d.digest);
          req.blob = true;
          if (offset > 0) {
            req.set_header("Range", fmt::format("bytes={}-", offset));
          }
          std::optional<Error> sink_error;
          bool first = true;
          req.sink = [&](std::string_view chunk, const Response& so_far) {
            if (first) {
              first = false;
              if (offset > 0 && so_far.status == 200) {
                w.restart(); // Range ignored: start again from zero
              } else if (offset > 0 &&
                         !content_range_ok(so_far.header("content-range"), offset, d.size)) {
                sink_error =
                    Error(Errc::network,
                          fmt::format("resuming {}: unexpected Content-Range \"{}\"", d.digest,
                                      so_far.header("content-range").value_or("")));
                return false;
              }
            }
            auto wr = w.write(chunk);
            if (!wr) {
              sink_error = wr.error();
              return false;
            }
            if (m_options.progress) {
              m_options.progress({ref, d.digest, w.written(), static_cast<std::uint64_t>(d.size)});
            }
            return true;
          };
          auto r = s.request(ep, repo, req);
          if (sink_error) {
            return std::unexpected(*sink_error);
          }
          if (!r) {
            return std::unexpected(std::move(r).error());
          }
          if (r->broken()) {
            if (interrupted()) {
              return util::fail(Errc::network, "interrupted");
            }
            if (w.written() - at_last_break >= k_resume_progress) {
              breaks = 0;
            }
            at_last_break = w.written();
            if (++breaks >= m_options.retry.max_attempts) {
              return util::fail(Errc::network, fmt::format("GET blob {}: {} (after {} attempts)",
                                                           d.digest, r->transport_error, breaks));
            }
            m_options.log.debug("blob {} broke after {} bytes ({}); resuming", d.digest,
                                w.written(), r->transport_error);
            std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(
                m_options.retry.initial_delay, std::chrono::milliseconds(1000)));
            continue;
          }
          if (r->status != 200 && r->status != 206) {
            return std::unexpected(Session::status_error(req, *r));
          }
          return {};
        }
      });
    };
    auto r = once();
    if (!r && is_digest_error(r.error()) && !interrupted()) {
      m_options.log.debug("blob {} failed verification ({}); fetching it once more", d.digest,
                          r.error().message());
      r = once();
    }
    return r;
  }

  // ---- OCI layouts ----------------------------------------------------------------------
  static std::pair<fs::path, std::string> split_layout(std::string_view ref) {
    std::string_view rest = ref.substr(4);
    // oci:DIR[:TAG] — the tag is after the last ':' unless that looks like part of the path.
    auto colon = rest.rfind(':');
    if (colon != std::string_view::npos && rest.find('/', colon) == std::string_view::npos) {
      return {fs::path(rest.substr(0, colon)), std::string(rest.substr(colon + 1))};
    }
    return {fs::path(rest), std::string{}};
  }

  Result<PulledImage> from_local_manifest(std::string_view text, const fs::path& root,
                                          const Descriptor& top_desc) {
    auto blob = [&](const Descriptor& d) {
      return root / "blobs" / std::string(digest_algorithm(d.digest)) /
             std::string(digest_hex(d.digest));
    };
    PulledImage image;
    image.reference = std::string(text);
    image.source = root.string();
    auto body = OPM_TRY(verified_read(blob(top_desc), top_desc, k_manifest_body_cap));
    auto manifest = OPM_TRY(parse_manifest(body, top_desc.media_type));
    image.digest = top_desc.digest;
    image.media_type = manifest.media_type;
    image.image_digest = top_desc.digest;
    if (manifest.kind == ManifestKind::index) {
      auto child = OPM_TRY(chosen_child(manifest));
      auto child_body = OPM_TRY(verified_read(blob(child), child, k_manifest_body_cap));
      manifest = OPM_TRY(parse_manifest(child_body, child.media_type));
      image.image_digest = child.digest;
    }
    auto config_body =
        OPM_TRY(verified_read(blob(manifest.config), manifest.config, k_manifest_body_cap));
    image.config_digest = manifest.config.digest;
    image.labels = OPM_TRY(parse_config(config_body)).labels;
    for (const auto& l : manifest.layers) {
      Hasher h(digest_algorithm(l.digest));
      auto p = blob(l);
      FILE* f = std::fopen(p.c_str(), "rb");
      if (f == nullptr) {
        return util::fail(Errc::not_found,
                          fmt::format("open {}: {}", p.string(), util::errno_text(errno)));
      }
      std::string buf(1 << 16, '\0');
      std::size_t n = 0;
      while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) {
        h.update(std::string_view(buf.data(), n));
      }
      std::fclose(f);
      std::string got = h.finish();
      if (got != l.digest) {
        return util::fail(Errc::invalid,
                          fmt::format("digest mismatch for {}: got {}", l.digest, got));
      }
    }
    image.layers = manifest.layers;
    return image;
  }

  Result<PulledImage> from_layout(std::string_view text) {
    auto [dir, tag] = split_layout(text);
    auto top = OPM_TRY(resolve_layout_ref(dir, tag));
    return from_local_manifest(text, dir, top);
  }

  // ---- docker save / podman save archives ------------------------------------------------
  Result<PulledImage> from_archive(std::string_view text) {
    std::string_view rest = text.substr(15);
    std::string file(rest);
    std::string wanted_tag;
    std::error_code ec;
    if (!fs::exists(file, ec)) {
      if (auto colon = rest.find(':'); colon != std::string_view::npos) {
        file = std::string(rest.substr(0, colon));
        wanted_tag = std::string(rest.substr(colon + 1));
      }
    }
    fs::path dir;
    {
      std::lock_guard lock(m_mutex);
      if (auto it = m_archive_dirs.find(std::string(rest)); it != m_archive_dirs.end()) {
        dir = it->second;
      }
    }
    if (dir.empty()) {
      dir = OPM_TRY(make_temp_dir("opm-archive-", "a temporary directory"));
      {
        std::lock_guard lock(m_mutex);
        m_archive_dirs.emplace(std::string(rest), dir);
      }
      LayerFile whole{file, "docker-archive:" + file, "application/x-tar"};
      auto r = unpack_layers({whole}, dir / "x", m_options.limits, m_options.log);
      if (!r) {
        return std::unexpected(std::move(r).error());
      }
    }
    fs::path root = dir / "x";
    if (fs::exists(root / "index.json", ec) && !fs::exists(root / "manifest.json", ec)) {
      auto top = OPM_TRY(resolve_layout_ref(root, wanted_tag));
      return from_local_manifest(text, root, top);
    }
    auto manifest_text = OPM_TRY(util::read_file(root / "manifest.json"));
    auto doc = nlohmann::json::parse(manifest_text, nullptr, false);
    if (!doc.is_array() || doc.empty()) {
      return util::fail(Errc::invalid, fmt::format("{}: invalid manifest.json", file));
    }
    const nlohmann::json* entry = nullptr;
    for (const auto& e : doc) {
      if (!e.is_object()) {
        continue;
      }
      if (wanted_tag.empty()) {
        if (entry != nullptr) {
          return util::fail(Errc::invalid,
                            fmt::format("{} holds more than one image; name one with "
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
    PulledImage image;
    image.reference = std::string(text);
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
      if (!l.is_string()) {
        continue;
      }
      fs::path layer = root / l.get<std::string>();
      Hasher h;
      auto content = OPM_TRY(util::read_file(layer));
      h.update(content);
      Descriptor d;
      d.digest = h.finish();
      d.size = static_cast<std::int64_t>(content.size());
      d.media_type = "application/vnd.docker.image.rootfs.diff.tar";
      fs::path link = dir / "blobs" / "sha256" / std::string(digest_hex(d.digest));
      if (!fs::exists(link, ec)) {
        fs::create_hard_link(layer, link, ec);
        if (ec) {
          fs::copy_file(layer, link, ec);
        }
      }
      image.layers.push_back(d);
    }
    return image;
  }

  struct Memo {
    PulledImage image;
    bool full = false;
    std::optional<PullSource> source; // where a registry image came from
  };

  Options m_options;
  std::mutex m_mutex;
  std::unique_ptr<BlobStore> m_store;
  std::unique_ptr<Session> m_session;
  std::optional<RegistriesConf> m_conf;
  std::map<std::string, Memo> m_memo;
  fs::path m_temp_cache;
  std::map<std::string, fs::path> m_archive_dirs;
};

std::unique_ptr<Puller> make_puller(Options options) {
  return std::make_unique<RegistryPuller>(std::move(options));
}

} // namespace opm::registry
