#pragma once

#include "registry/cache_dir.hpp"
#include "registry/manifest.hpp"
#include "util/error.hpp"

#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace opm::registry {

// A content-addressed blob store laid out as an OCI image layout:
//   oci-layout, index.json, blobs/<alg>/<hex> (verified, 0444),
//   ingest/<hex>.<pid>.<rand> (downloads in progress), ingest/<hex>.lock (flock).
// Safe for many threads and for several processes sharing the directory. A shared store
// holds the directory (CacheUse::shared) while it is open, and renews a blob's time on each
// hit, its last use for `opm alpha cache prune`.
class BlobStore {
public:
  // Who else may use the directory: a shared cache outlives crashes and other processes, so
  // every blob is made durable before it gets its name and ingests lock across processes; a
  // private one is scratch space that dies with this process and needs neither.
  enum class Sharing { shared, private_to_process };
  // Opens (creating when needed) the layout at `root`.
  static Result<std::unique_ptr<BlobStore>> open(const std::filesystem::path& root,
                                                 Sharing sharing = Sharing::shared);

  [[nodiscard]] const std::filesystem::path& root() const { return m_root; }
  [[nodiscard]] std::filesystem::path path_of(std::string_view digest) const;
  // Present with the expected size (size < 0: any size).
  [[nodiscard]] bool has(std::string_view digest, std::int64_t size) const;
  Result<std::string> read(std::string_view digest, std::size_t max_bytes) const;

  // Writes one blob: `produce` is called with a writer and must feed every byte; the
  // bytes are hashed as they arrive and the blob enters the store only when digest and
  // size match. One producer per digest at a time, across threads and processes: others
  // wait and then find the blob present. `produce` may call `restart()` to discard what
  // it wrote so far (a server that ignored Range).
  class Writer {
  public:
    virtual ~Writer() = default;
    virtual Result<void> write(std::string_view bytes) = 0;
    virtual void restart() = 0;
    [[nodiscard]] virtual std::uint64_t written() const = 0;
  };
  Result<void> ingest(std::string_view digest, std::int64_t size,
                      const std::function<Result<void>(Writer&)>& produce);
  // A small blob already in memory (manifests, configs).
  Result<void> put(std::string_view digest, std::string_view bytes);

  // index.json: remember the manifest a reference resolved to; annotation
  // org.opencontainers.image.ref.name = hex(reference). `note` keeps it in memory until
  // `flush` merges every noted reference into the file under a lock (one write per batch);
  // `record` does both.
  void note(const std::string& reference, const Descriptor& manifest);
  Result<void> flush();
  Result<void> record(const std::string& reference, const Descriptor& manifest);
  // The manifest `reference` was last recorded as resolving to: noted in this process, or
  // in index.json as it was when first asked.
  std::optional<Descriptor> lookup(const std::string& reference);

  // Removes blobs not reachable from index.json and ingest files older than a day.
  Result<void> collect_garbage();

private:
  BlobStore(std::filesystem::path root, Sharing sharing);
  std::shared_ptr<std::mutex> digest_mutex(std::string_view digest);
  // Makes everything written to `fd`'s filesystem so far durable. Concurrent callers share
  // one syncfs (group commit) instead of one journal commit per blob.
  Result<void> make_durable(int fd);

  std::filesystem::path m_root;
  Sharing m_sharing;
  std::optional<CacheUse> m_use;
  std::mutex m_mutex;
  std::map<std::string, std::shared_ptr<std::mutex>, std::less<>> m_inflight;
  std::map<std::string, Descriptor> m_pending;                 // hex(reference) -> manifest
  std::optional<std::map<std::string, Descriptor>> m_recorded; // index.json, read once
  std::mutex m_sync_mutex;
  std::condition_variable m_sync_cv;
  std::uint64_t m_sync_requested = 0;
  std::uint64_t m_sync_done = 0;
  bool m_syncing = false;
};

// Where a layout keeps a blob: <root>/blobs/<algorithm>/<hex>.
std::filesystem::path blob_path(const std::filesystem::path& root, std::string_view digest);

// Reads an OCI image layout directory (`oci:DIR[:TAG]`): the descriptor for `tag`
// (annotation org.opencontainers.image.ref.name), or the only manifest when `tag` is empty.
Result<Descriptor> resolve_layout_ref(const std::filesystem::path& dir, const std::string& tag);

std::string hex_encode(std::string_view s);

// Drops from the layout's index.json the references whose manifest `root` no longer has.
Result<void> forget_missing_manifests(const std::filesystem::path& root);

} // namespace opm::registry
