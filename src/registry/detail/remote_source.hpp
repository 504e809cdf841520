#pragma once

#include "registry/client.hpp"
#include "registry/detail/image_source.hpp"
#include "registry/layout.hpp"
#include "registry/options.hpp"
#include "registry/registries_conf.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace opm::registry {

// Images pulled from registries: each reference tried at the sources registries.conf
// gives it (mirrors, then the registry itself), manifests and blobs kept in the blob
// cache (Options::cache_dir, else a private temporary one). Built on first use;
// thread-safe.
class RemoteSource final : public ImageSource {
public:
  explicit RemoteSource(const Options& options) : m_options(options) {}
  ~RemoteSource() override { reset(); }
  RemoteSource(const RemoteSource&) = delete;
  RemoteSource& operator=(const RemoteSource&) = delete;

  // From the first source that has the image; with several sources failing: "pulling REF:
  // every source failed: SRC: error; ...". The manifest always; the config (and so the
  // labels) and the layers as `parts` asks. After an `earlier` pull, from the source that
  // answered it, by its digest.
  Result<PulledImage> pull(const ImageLocation& at, PullParts parts,
                           const PulledImage* earlier) override;
  // The blob cache's layout root, where pulled layers are.
  Result<std::filesystem::path> layer_root(const ImageLocation& at) override;
  bool local() const override { return false; }
  // Records the references pulled so far in the persistent cache's index.json.
  void finish_batch() override;
  // Drops the client and the cache; a private cache is removed. Usable again after.
  void reset() override;

private:
  Result<PulledImage> pull_any(const ImageLocation& at, PullParts parts);
  // From one given source (a digest in src.ref pins the manifest).
  Result<PulledImage> pull_from(std::string_view ref, const PullSource& src, PullParts parts);
  Result<std::filesystem::path> cache_root();
  Result<BlobStore*> store();
  Result<Session*> session();
  Result<const RegistriesConf*> conf();
  // Where one pull goes: the client, the cache, the registry and the repository in it.
  struct Target {
    Session& session;
    BlobStore& store;
    Endpoint endpoint;
    std::string repo;
  };
  struct Fetched {
    Descriptor descriptor;
    std::string body;
  };
  // The manifest or index the reference names: from the cache for a digest it holds, else
  // fetched (a tag known from an earlier pull is asked for with If-None-Match).
  Result<Fetched> top_manifest(const Target& at, const Reference& ref);
  // The image manifest an index entry names, checked against the entry's size.
  Result<Manifest> child_manifest(const Target& at, Descriptor child);
  // GET /v2/<repo>/manifests/<id>, verified against `want_digest` and the registry's
  // Docker-Content-Digest, then put in the cache; schema 1 is refused.
  Result<Fetched> fetch_manifest(const Target& at, const std::string& id,
                                 const std::string& want_digest,
                                 const std::optional<Descriptor>& known = std::nullopt);
  // The config, and the layers too when `with_layers`, into the cache.
  Result<void> fetch_blobs(const Target& at, const Manifest& manifest, bool with_layers,
                           std::string_view ref);
  Result<void> fetch_blob(const Target& at, const Descriptor& d, std::string_view ref);

  const Options& m_options;
  std::mutex m_mutex;
  std::unique_ptr<BlobStore> m_store;
  std::unique_ptr<Session> m_session;
  std::optional<RegistriesConf> m_conf;
  util::TempTree m_temp_cache;
  std::map<std::string, PullSource> m_answered; // location text -> the source that answered
};

} // namespace opm::registry
