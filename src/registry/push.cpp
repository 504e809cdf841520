#include "registry/push.hpp"

#include "registry/digest.hpp"
#include "registry/layout.hpp"
#include "registry/reference.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/parallel.hpp"

#include <fmt/format.h>

#include <fstream>
#include <set>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_push_actions = "pull,push";

// Reads a blob's bytes piece by piece from its file or its in-memory copy.
class BlobReader {
public:
  explicit BlobReader(const PushBlob& blob) : m_blob(blob) {
    if (!blob.file.empty()) {
      m_in.open(blob.file, std::ios::binary);
    }
  }
  [[nodiscard]] bool ok() const { return m_blob.file.empty() || m_in.is_open(); }
  // Up to `n` bytes; fewer only at the end.
  Result<std::string> next(std::uint64_t n) {
    if (m_blob.file.empty()) {
      std::string piece = m_blob.bytes.substr(std::min(m_offset, m_blob.bytes.size()), n);
      m_offset += piece.size();
      return piece;
    }
    std::string piece(n, '\0');
    m_in.read(piece.data(), static_cast<std::streamsize>(n));
    if (m_in.bad()) {
      return util::fail(Errc::io, fmt::format("reading {}", m_blob.file.string()));
    }
    piece.resize(static_cast<std::size_t>(m_in.gcount()));
    return piece;
  }

private:
  const PushBlob& m_blob;
  std::ifstream m_in;
  std::size_t m_offset = 0;
};

std::string with_query(std::string url, std::string_view query) {
  url += url.find('?') == std::string::npos ? '?' : '&';
  url += query;
  return url;
}

Error digest_mismatch(const PushBlob& blob, const std::string& got, std::uint64_t size) {
  return Error(Errc::invalid,
               fmt::format("{} does not match its digest and size: got {} and {} bytes, want {} "
                           "bytes; not committed",
                           blob.file.empty() ? "blob" : blob.file.string(), got, size,
                           blob.descriptor.size));
}

} // namespace

Pusher::Pusher(const Options& options, std::uint64_t chunk_size)
    : m_options(options), m_chunk(std::max<std::uint64_t>(chunk_size, 1)) {}

Pusher::~Pusher() = default;

Result<Session*> Pusher::session() {
  std::lock_guard lock(m_mutex);
  if (!m_session) {
    m_session = std::make_unique<Session>(m_options);
  }
  return m_session.get();
}

Result<PushTarget> Pusher::target(std::string_view text) {
  return target(OPM_TRY(parse_canonical(text)));
}

Result<PushTarget> Pusher::target(const Reference& ref) {
  {
    std::lock_guard lock(m_mutex);
    if (!m_conf) {
      m_conf = OPM_TRY(RegistriesConf::load(m_options));
    }
  }
  auto sources = OPM_TRY(m_conf->sources(ref));
  // The primary location is last; mirrors serve pulls only.
  const PullSource& primary = sources.back();
  PushTarget at;
  at.endpoint = Endpoint{api_host(primary.ref), primary.ref.domain, primary.insecure};
  at.repository = primary.ref.path;
  at.tag = primary.ref.tag;
  at.reference = primary.ref.to_string();
  return at;
}

PushStats Pusher::stats() const {
  std::lock_guard lock(m_mutex);
  return m_stats;
}

void Pusher::count(int PushStats::*field, std::uint64_t bytes) {
  std::lock_guard lock(m_mutex);
  ++(m_stats.*field);
  m_stats.bytes_uploaded += bytes;
}

Result<Response> Pusher::send(const PushTarget& at, Request request, std::string_view actions) {
  Session* s = OPM_TRY(session());
  return s->request(at.endpoint, at.repository, std::move(request), actions);
}

Result<bool> Pusher::blob_present(const PushTarget& at, const Descriptor& d) {
  Request head;
  head.method = "HEAD";
  head.url = fmt::format("/v2/{}/blobs/{}", at.repository, d.digest);
  auto r = OPM_TRY(send(at, head, k_push_actions));
  if (r.status == 404) {
    return false;
  }
  if (r.status != 200) {
    return std::unexpected(Session::status_error(head, r));
  }
  auto length = r.header("content-length");
  return !length || d.size < 0 || *length == std::to_string(d.size);
}

Result<std::string> Pusher::upload_path(const PushTarget& at, const Response& r) {
  auto location = r.header("location");
  if (!location || location->empty()) {
    return util::fail(Errc::network,
                      fmt::format("{}: the registry gave no upload location", redact_url(r.url)));
  }
  std::string absolute = resolve_url(r.url, *location);
  auto url = parse_url(absolute);
  auto origin = parse_url(r.url);
  // Upload URLs on another host would need that host's credentials and TLS rules.
  if (!url || !origin || url->origin() != origin->origin()) {
    return util::fail(Errc::network, fmt::format("upload location {} is not on {}",
                                                 redact_url(absolute), at.endpoint.api_host));
  }
  return url->path;
}

Result<std::optional<std::string>> Pusher::start_upload(const PushTarget& at,
                                                        const PushBlob& blob) {
  Request post;
  post.method = "POST";
  post.url = fmt::format("/v2/{}/blobs/uploads/", at.repository);
  std::string actions(k_push_actions);
  if (!blob.mount_from.empty() && blob.mount_from != at.repository) {
    post.url =
        with_query(post.url, fmt::format("mount={}&from={}", url_encode(blob.descriptor.digest),
                                         url_encode(blob.mount_from)));
    // The token must also allow reading the repository mounted from.
    actions += " repository:" + blob.mount_from + ":pull";
  }
  auto r = OPM_TRY(send(at, post, actions));
  if (r.status == 201) {
    return std::nullopt;
  }
  if (r.status != 202) {
    return std::unexpected(Session::status_error(post, r));
  }
  return OPM_TRY(upload_path(at, r));
}

Result<void> Pusher::upload_chunks(const PushTarget& at, const PushBlob& blob,
                                   std::string& location) {
  BlobReader reader(blob);
  if (!reader.ok()) {
    return util::fail(Errc::io,
                      fmt::format("opening {}: {}", blob.file.string(), util::errno_text(errno)));
  }
  Hasher hasher(digest_algorithm(blob.descriptor.digest));
  std::uint64_t offset = 0;
  bool monolithic =
      blob.descriptor.size >= 0 && static_cast<std::uint64_t>(blob.descriptor.size) <= m_chunk;
  for (;;) {
    std::string piece = OPM_TRY(reader.next(monolithic ? m_chunk + 1 : m_chunk));
    hasher.update(piece);
    if (monolithic || piece.empty()) {
      std::string got = hasher.finish();
      std::uint64_t size = offset + piece.size();
      if (got != blob.descriptor.digest ||
          static_cast<std::int64_t>(size) != blob.descriptor.size) {
        return std::unexpected(digest_mismatch(blob, got, size));
      }
      Request put;
      put.method = "PUT";
      put.url = with_query(location, "digest=" + url_encode(blob.descriptor.digest));
      put.blob = true;
      put.set_header("Content-Type", "application/octet-stream");
      put.body = std::move(piece);
      auto r = OPM_TRY(send(at, std::move(put), k_push_actions));
      if (r.status != 201 && r.status != 204) {
        Request shown;
        shown.method = "PUT";
        shown.url = r.url;
        return std::unexpected(Session::status_error(shown, r));
      }
      if (auto d = r.header("docker-content-digest"); d && *d != blob.descriptor.digest) {
        return util::fail(Errc::network,
                          fmt::format("registry stored blob {} as {}", blob.descriptor.digest, *d));
      }
      return {};
    }
    Request patch;
    patch.method = "PATCH";
    patch.url = location;
    patch.blob = true;
    patch.set_header("Content-Type", "application/octet-stream");
    patch.set_header("Content-Range", fmt::format("{}-{}", offset, offset + piece.size() - 1));
    offset += piece.size();
    patch.body = std::move(piece);
    auto r = OPM_TRY(send(at, patch, k_push_actions));
    if (r.status != 202 && r.status != 204) {
      patch.body.clear();
      return std::unexpected(Session::status_error(patch, r));
    }
    location = OPM_TRY(upload_path(at, r));
  }
}

Result<void> Pusher::upload(const PushTarget& at, const PushBlob& blob, std::string location) {
  auto done = upload_chunks(at, blob, location);
  if (!done) {
    // Leave no half-written upload session behind; the registry would expire it anyway.
    Request cancel;
    cancel.method = "DELETE";
    cancel.url = location;
    (void)send(at, cancel, k_push_actions);
    return done;
  }
  count(&PushStats::blobs_uploaded, static_cast<std::uint64_t>(blob.descriptor.size));
  return {};
}

Result<void> Pusher::put_blob(const PushTarget& at, const PushBlob& blob) {
  auto run = [&]() -> Result<void> {
    if (OPM_TRY(blob_present(at, blob.descriptor))) {
      count(&PushStats::blobs_present);
      return {};
    }
    auto location = OPM_TRY(start_upload(at, blob));
    if (!location) {
      m_options.log.debug("mounted {} from {}", blob.descriptor.digest, blob.mount_from);
      count(&PushStats::blobs_mounted);
      return {};
    }
    return upload(at, blob, std::move(*location));
  };
  auto r = run();
  // A session broken half-way cannot be resumed reliably (the registry may hold part of a
  // chunk): one fresh upload from the first byte.
  if (!r && r.error().code() == Errc::network && !util::interrupted()) {
    m_options.log.debug("upload of {} failed ({}): starting over", blob.descriptor.digest,
                        r.error().message());
    r = run();
  }
  if (!r) {
    return std::unexpected(
        std::move(r).error().wrap(fmt::format("pushing blob {}", blob.descriptor.digest)));
  }
  return {};
}

Result<void> Pusher::put_blobs(const PushTarget& at, const std::vector<PushBlob>& blobs) {
  std::vector<const PushBlob*> unique;
  std::set<std::string> seen;
  for (const auto& b : blobs) {
    if (seen.insert(b.descriptor.digest).second) {
      unique.push_back(&b);
    }
  }
  std::vector<std::optional<Error>> failures(unique.size());
  util::run_indexed_until_failure(unique.size(), k_push_jobs, [&](std::size_t i) {
    auto r = put_blob(at, *unique[i]);
    if (!r) {
      failures[i] = std::move(r).error();
    }
    return r.has_value();
  });
  for (auto& f : failures) {
    if (f) {
      return std::unexpected(std::move(*f));
    }
  }
  return {};
}

Result<std::string> Pusher::put_manifest(const PushTarget& at, std::string_view reference,
                                         std::string_view media_type, std::string_view body) {
  std::string digest = digest_of(body);
  Request put;
  put.method = "PUT";
  put.url = fmt::format("/v2/{}/manifests/{}", at.repository, reference);
  put.set_header("Content-Type", std::string(media_type));
  put.body = std::string(body);
  auto r = OPM_TRY(send(at, put, k_push_actions));
  if (r.status != 201 && r.status != 200 && r.status != 202) {
    put.body.clear();
    put.url = r.url;
    return std::unexpected(Session::status_error(put, r));
  }
  if (auto d = r.header("docker-content-digest"); d && *d != digest) {
    return util::fail(Errc::network, fmt::format("registry stored manifest {} as {}", digest, *d));
  }
  count(&PushStats::manifests_put);
  return digest;
}

namespace {

Result<void> push_blobs_of(Pusher& pusher, const PushTarget& at, const fs::path& layout,
                           const Manifest& m, const std::string& mount_from) {
  std::vector<PushBlob> blobs;
  blobs.push_back({m.config, blob_path(layout, m.config.digest), {}, mount_from});
  for (const auto& d : m.layers) {
    blobs.push_back({d, blob_path(layout, d.digest), {}, mount_from});
  }
  return pusher.put_blobs(at, blobs);
}

Result<std::string> push_manifest_tree(Pusher& pusher, const PushTarget& at, const fs::path& layout,
                                       const Descriptor& d, std::string_view reference,
                                       const std::string& mount_from, int depth) {
  if (depth > 4) {
    return util::fail(Errc::invalid, fmt::format("image index {} nests too deep", d.digest));
  }
  auto body = OPM_TRY(util::read_file(blob_path(layout, d.digest)));
  if (digest_of(body, d.digest) != d.digest) {
    return util::fail(Errc::invalid, fmt::format("manifest {} in {} does not match its digest",
                                                 d.digest, layout.string()));
  }
  auto m = OPM_TRY(parse_manifest(body, d.media_type));
  if (m.kind == ManifestKind::index) {
    for (const auto& child : m.entries) {
      OPM_TRY(push_manifest_tree(pusher, at, layout, child, child.digest, mount_from, depth + 1));
    }
  } else {
    OPM_TRY(push_blobs_of(pusher, at, layout, m, mount_from));
  }
  return pusher.put_manifest(at, reference, m.media_type, body);
}

} // namespace

Result<std::string> push_layout_image(Pusher& pusher, const PushTarget& at, const fs::path& layout,
                                      const Descriptor& top, const std::string& mount_from) {
  std::string reference = at.tag.empty() ? top.digest : at.tag;
  return push_manifest_tree(pusher, at, layout, top, reference, mount_from, 0);
}

} // namespace opm::registry
