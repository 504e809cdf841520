#pragma once

#include "registry/client.hpp"
#include "registry/manifest.hpp"
#include "registry/options.hpp"
#include "registry/reference.hpp"
#include "registry/registries_conf.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opm::registry {

// One blob to make present in the target repository. Its bytes come from `file`, or from
// `bytes` when `file` is empty; they are hashed on the way and the upload is committed only
// when they match the descriptor's digest and size.
struct PushBlob {
  Descriptor descriptor;
  std::filesystem::path file;
  std::string bytes;
  // A repository of the same registry that holds the blob: asked for a cross-repository
  // mount before any byte is sent. Empty = none.
  std::string mount_from;
};

// What a push did; for logs, tests and benchmarks.
struct PushStats {
  std::uint64_t bytes_uploaded = 0;
  int blobs_uploaded = 0;
  int blobs_present = 0;
  int blobs_mounted = 0;
  int manifests_put = 0;
};

// Where a push goes: the registry (after registries.conf's location rewrite; mirrors are
// never pushed to) and the repository in it.
struct PushTarget {
  Endpoint endpoint;
  std::string repository; // "ops/catalog"
  std::string tag;        // empty when the reference names a digest
  std::string reference;  // canonical, as rewritten
};

// Blobs up to this size go in one PUT; larger ones in PATCH chunks of this size.
// Blob uploads in flight at once.
inline constexpr std::size_t k_push_jobs = 4;
inline constexpr std::uint64_t k_default_push_chunk = 16ULL << 20;

// The push half of the registry client (go-containerregistry pkg/v1/remote/write.go): the
// same session, credentials, TLS, registries.conf and retry rules as pulls, with
// `repository:NAME:pull,push` bearer scopes. Nothing is visible under a tag until the
// manifest PUT, which comes after every blob it references. Thread-safe.
class Pusher {
public:
  explicit Pusher(const Options& options, std::uint64_t chunk_size = k_default_push_chunk);
  ~Pusher();
  Pusher(const Pusher&) = delete;
  Pusher& operator=(const Pusher&) = delete;

  // The target for a canonical reference with a tag or a digest; a blocked registry fails.
  Result<PushTarget> target(std::string_view ref);
  Result<PushTarget> target(const Reference& ref);

  // Makes one blob present: HEAD first (present with the right size: nothing sent), then a
  // mount when `mount_from` is set, else an upload (one PUT, or PATCH chunks then a PUT).
  Result<void> put_blob(const PushTarget& at, const PushBlob& blob);

  // put_blob for each blob, several at once (duplicates once); the first failure in input
  // order is returned, after the blobs before it were tried.
  Result<void> put_blobs(const PushTarget& at, const std::vector<PushBlob>& blobs);

  // PUT a manifest or index under `reference` (a tag or its digest); returns its digest,
  // checked against the registry's Docker-Content-Digest when it sends one.
  Result<std::string> put_manifest(const PushTarget& at, std::string_view reference,
                                   std::string_view media_type, std::string_view body);

  [[nodiscard]] PushStats stats() const;

private:
  Result<Session*> session();
  Result<bool> blob_present(const PushTarget& at, const Descriptor& d);
  // POST to start an upload or to mount; the upload URL, or nothing when mounted.
  Result<std::optional<std::string>> start_upload(const PushTarget& at, const PushBlob& blob);
  Result<void> upload(const PushTarget& at, const PushBlob& blob, std::string location);
  Result<void> upload_chunks(const PushTarget& at, const PushBlob& blob, std::string& location);
  Result<Response> send(const PushTarget& at, Request request, std::string_view actions);
  Result<std::string> upload_path(const PushTarget& at, const Response& r);
  void count(int PushStats::*field, std::uint64_t bytes = 0);

  const Options& m_options;
  std::uint64_t m_chunk;
  mutable std::mutex m_mutex;
  std::unique_ptr<Session> m_session;
  std::optional<RegistriesConf> m_conf;
  PushStats m_stats;
};

// Pushes the image `top` of the OCI layout at `layout` (an image manifest, or an index and
// every manifest it lists) to `at` under its tag (or digest): blobs first, children before
// their index. `mount_from` is offered for every layer (empty = no mounts). Returns the
// digest of the top manifest.
Result<std::string> push_layout_image(Pusher& pusher, const PushTarget& at,
                                      const std::filesystem::path& layout, const Descriptor& top,
                                      const std::string& mount_from = {});

} // namespace opm::registry
