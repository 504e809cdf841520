#include "registry/layout.hpp"

#include "registry/digest.hpp"
#include "registry/reference.hpp"
#include "util/fs.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <system_error>

namespace opm::registry {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* k_ref_annotation = "org.opencontainers.image.ref.name";
// Below this much free space the cache counts as full.
constexpr std::uint64_t k_min_free_bytes = 16ULL << 20;

using util::Fd;

std::string random_suffix() {
  thread_local std::mt19937_64 rng(std::random_device{}());
  return fmt::format("{:016x}", rng());
}

Result<void> write_all(int fd, std::string_view bytes, const fs::path& where) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return util::fail(Errc::io,
                        fmt::format("write {}: {}", where.string(), util::errno_text(errno)));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

class FileWriter final : public BlobStore::Writer {
public:
  FileWriter(int fd, fs::path path, std::string_view algorithm, std::int64_t limit)
      : m_fd(fd), m_path(std::move(path)), m_hasher(algorithm), m_limit(limit) {}
  Result<void> write(std::string_view bytes) override {
    m_written += bytes.size();
    if (m_limit >= 0 && m_written > static_cast<std::uint64_t>(m_limit)) {
      return util::fail(Errc::network,
                        fmt::format("blob is larger than its descriptor size {}", m_limit));
    }
    m_hasher.update(bytes);
    return write_all(m_fd, bytes, m_path);
  }
  void restart() override {
    m_hasher.reset();
    m_written = 0;
    [[maybe_unused]] int rc = ::ftruncate(m_fd, 0);
    ::lseek(m_fd, 0, SEEK_SET);
  }
  [[nodiscard]] std::uint64_t written() const override { return m_written; }
  std::string finish() { return m_hasher.finish(); }

private:
  int m_fd;
  fs::path m_path;
  Hasher m_hasher;
  std::int64_t m_limit;
  std::uint64_t m_written = 0;
};

// An exclusive flock on `path`, created for the purpose and removed when released, so
// that no lock file outlives its use. A waiter that acquires a file another holder has
// just removed tries again on the new one.
class FileLock {
public:
  explicit FileLock(fs::path path) : m_path(std::move(path)) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      Fd fd(::open(m_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
      if (fd.fd < 0) {
        return;
      }
      while (::flock(fd.fd, LOCK_EX) != 0 && errno == EINTR) {
      }
      struct stat held {};
      struct stat named {};
      if (::fstat(fd.fd, &held) == 0 && ::stat(m_path.c_str(), &named) == 0 &&
          held.st_ino == named.st_ino && held.st_dev == named.st_dev) {
        std::swap(m_fd.fd, fd.fd);
        return;
      }
    }
  }
  ~FileLock() {
    if (m_fd.fd >= 0) {
      ::unlink(m_path.c_str());
      ::flock(m_fd.fd, LOCK_UN);
    }
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  [[nodiscard]] bool ok() const { return m_fd.fd >= 0; }

private:
  fs::path m_path;
  Fd m_fd;
};

// Whether new files can be written under `dir`: a read-only or full file system fails here,
// before a pull depends on it.
Result<void> probe_writable(const fs::path& dir) {
  fs::path probe = dir / fmt::format(".probe.{}.{}", ::getpid(), random_suffix());
  Fd fd(::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (fd.fd < 0) {
    return util::fail(Errc::io,
                      fmt::format("create {}: {}", probe.string(), util::errno_text(errno)));
  }
  std::string block(4096, '\0');
  auto written = write_all(fd.fd, block, probe);
  ::unlink(probe.c_str());
  OPM_TRY(written);
  struct statvfs vfs {};
  if (::fstatvfs(fd.fd, &vfs) == 0 && vfs.f_bavail * vfs.f_frsize < k_min_free_bytes) {
    return util::fail(Errc::io, fmt::format("{}: no space left on device", dir.string()));
  }
  return {};
}

json read_index(const fs::path& root) {
  auto text = util::read_file(root / "index.json");
  if (!text) {
    return json{{"schemaVersion", 2}, {"manifests", json::array()}};
  }
  json doc = json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("manifests") || !doc["manifests"].is_array()) {
    return json{{"schemaVersion", 2}, {"manifests", json::array()}};
  }
  return doc;
}

} // namespace

std::string hex_encode(std::string_view s) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() * 2);
  for (unsigned char c : s) {
    out += k_hex[c >> 4];
    out += k_hex[c & 15];
  }
  return out;
}

BlobStore::BlobStore(fs::path root, Sharing sharing)
    : m_root(std::move(root)), m_sharing(sharing) {}

Result<std::unique_ptr<BlobStore>> BlobStore::open(const fs::path& root, Sharing sharing) {
  // Held first: a store opened while the cache is being pruned waits for the pruning to end.
  std::optional<CacheUse> use;
  if (sharing == Sharing::shared) {
    use.emplace(CacheUse::shared(root));
  }
  std::error_code ec;
  fs::create_directories(root / "blobs" / "sha256", ec);
  for (const char* alg : {"sha384", "sha512"}) {
    if (!ec) {
      fs::create_directories(root / "blobs" / alg, ec);
    }
  }
  if (!ec) {
    fs::create_directories(root / "ingest", ec);
  }
  if (ec) {
    return util::fail(Errc::io,
                      fmt::format("creating image cache {}: {}", root.string(), ec.message()));
  }
  OPM_TRY(probe_writable(root / "ingest"));
  if (!fs::exists(root / "oci-layout", ec)) {
    OPM_TRY(util::write_file_atomic(root / "oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}"));
  }
  std::unique_ptr<BlobStore> store(new BlobStore(root, sharing));
  if (use) {
    store->m_use.emplace(std::move(*use));
  }
  return store;
}

fs::path blob_path(const fs::path& root, std::string_view digest) {
  return root / "blobs" / std::string(digest_algorithm(digest)) / std::string(digest_hex(digest));
}

fs::path BlobStore::path_of(std::string_view digest) const { return blob_path(m_root, digest); }

bool BlobStore::has(std::string_view digest, std::int64_t size) const {
  fs::path path = path_of(digest);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return false;
  }
  if (size >= 0 && st.st_size != size) {
    return false;
  }
  if (m_sharing == Sharing::shared) {
    ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0); // a hit is a use
  }
  return true;
}

Result<std::string> BlobStore::read(std::string_view digest, std::size_t max_bytes) const {
  auto text = OPM_TRY(util::read_file(path_of(digest)));
  if (text.size() > max_bytes) {
    return util::fail(Errc::invalid, fmt::format("cached blob {} is too large", digest));
  }
  return text;
}

std::shared_ptr<std::mutex> BlobStore::digest_mutex(std::string_view digest) {
  std::lock_guard lock(m_mutex);
  auto it = m_inflight.find(digest);
  if (it == m_inflight.end()) {
    it = m_inflight.emplace(std::string(digest), std::make_shared<std::mutex>()).first;
  }
  return it->second;
}

Result<void> BlobStore::ingest(std::string_view digest, std::int64_t size,
                               const std::function<Result<void>(Writer&)>& produce) {
  if (has(digest, size)) {
    return {};
  }
  auto mutex = digest_mutex(digest);
  std::lock_guard in_process(*mutex);
  if (has(digest, size)) {
    return {};
  }
  std::string hex(digest_hex(digest));
  std::optional<FileLock> across_processes;
  if (m_sharing == Sharing::shared) {
    across_processes.emplace(m_root / "ingest" / (hex + ".lock"));
    if (has(digest, size)) {
      return {};
    }
  }
  fs::path temp = m_root / "ingest" / fmt::format("{}.{}.{}", hex, ::getpid(), random_suffix());
  Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.fd < 0) {
    return util::fail(Errc::io,
                      fmt::format("create {}: {}", temp.string(), util::errno_text(errno)));
  }
  struct Cleanup {
    const fs::path& p;
    bool keep = false;
    ~Cleanup() {
      if (!keep) {
        ::unlink(p.c_str());
      }
    }
  } cleanup{temp};
  FileWriter writer(fd.fd, temp, digest_algorithm(digest), size);
  OPM_TRY(produce(writer));
  if (size >= 0 && writer.written() != static_cast<std::uint64_t>(size)) {
    return util::fail(Errc::network, fmt::format("size mismatch for {}: got {} bytes, want {}",
                                                 digest, writer.written(), size));
  }
  std::string actual = writer.finish();
  if (actual != digest) {
    return util::fail(Errc::network, fmt::format("digest mismatch for {}: got {}", digest, actual));
  }
  if (m_sharing == Sharing::shared) {
    OPM_TRY(make_durable(fd.fd));
  }
  ::fchmod(fd.fd, 0444);
  fs::path target = path_of(digest);
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    return util::fail(Errc::io, fmt::format("rename {} {}: {}", temp.string(), target.string(),
                                            util::errno_text(errno)));
  }
  cleanup.keep = true;
  return {};
}

Result<void> BlobStore::make_durable(int fd) {
  std::unique_lock lock(m_sync_mutex);
  std::uint64_t ticket = ++m_sync_requested;
  while (m_sync_done < ticket) {
    if (m_syncing) {
      m_sync_cv.wait(lock);
      continue;
    }
    m_syncing = true;
    std::uint64_t target = m_sync_requested;
    lock.unlock();
    int rc = ::syncfs(fd);
    int err = errno;
    lock.lock();
    m_syncing = false;
    if (rc != 0) {
      m_sync_cv.notify_all();
      return util::fail(Errc::io,
                        fmt::format("syncfs {}: {}", m_root.string(), util::errno_text(err)));
    }
    m_sync_done = std::max(m_sync_done, target);
    m_sync_cv.notify_all();
  }
  return {};
}

Result<void> BlobStore::put(std::string_view digest, std::string_view bytes) {
  return ingest(digest, static_cast<std::int64_t>(bytes.size()),
                [&](Writer& w) { return w.write(bytes); });
}

void BlobStore::note(const std::string& reference, const Descriptor& manifest) {
  std::lock_guard lock(m_mutex);
  m_pending[hex_encode(reference)] = manifest;
}

Result<void> BlobStore::flush() {
  std::map<std::string, Descriptor> pending;
  {
    std::lock_guard lock(m_mutex);
    pending.swap(m_pending);
    if (m_recorded) {
      for (const auto& [name, d] : pending) {
        (*m_recorded)[name] = d;
      }
    }
  }
  if (pending.empty()) {
    return {};
  }
  FileLock lock(m_root / "index.lock");
  json doc = read_index(m_root);
  json& list = doc["manifests"];
  bool changed = false;
  for (auto& e : list) {
    if (!e.is_object() || !e.contains("annotations") || !e["annotations"].is_object()) {
      continue;
    }
    auto it = pending.find(e["annotations"].value(k_ref_annotation, ""));
    if (it == pending.end()) {
      continue;
    }
    const Descriptor& d = it->second;
    if (e.value("digest", "") != d.digest || e.value("mediaType", "") != d.media_type ||
        e.value("size", std::int64_t{-1}) != d.size) {
      e["digest"] = d.digest;
      e["mediaType"] = d.media_type;
      e["size"] = d.size;
      changed = true;
    }
    pending.erase(it);
  }
  for (const auto& [name, d] : pending) {
    list.push_back({{"mediaType", d.media_type},
                    {"digest", d.digest},
                    {"size", d.size},
                    {"annotations", {{k_ref_annotation, name}}}});
    changed = true;
  }
  if (!changed) {
    return {};
  }
  return util::write_file_atomic(m_root / "index.json", doc.dump());
}

Result<void> BlobStore::record(const std::string& reference, const Descriptor& manifest) {
  note(reference, manifest);
  return flush();
}

std::optional<Descriptor> BlobStore::lookup(const std::string& reference) {
  std::string name = hex_encode(reference);
  std::lock_guard lock(m_mutex);
  if (auto it = m_pending.find(name); it != m_pending.end()) {
    return it->second;
  }
  if (!m_recorded) {
    m_recorded.emplace();
    json doc = read_index(m_root);
    for (const auto& e : doc["manifests"]) {
      if (e.is_object() && e.contains("annotations") && e["annotations"].is_object()) {
        Descriptor d;
        d.media_type = e.value("mediaType", "");
        d.digest = e.value("digest", "");
        d.size = e.value("size", std::int64_t{-1});
        (*m_recorded)[e["annotations"].value(k_ref_annotation, "")] = std::move(d);
      }
    }
  }
  if (auto it = m_recorded->find(name); it != m_recorded->end()) {
    return it->second;
  }
  return std::nullopt;
}

Result<void> BlobStore::collect_garbage() {
  FileLock lock(m_root / "index.lock");
  json doc = read_index(m_root);
  std::set<std::string> keep;
  std::vector<std::string> pending;
  for (const auto& e : doc["manifests"]) {
    if (e.is_object()) {
      pending.push_back(e.value("digest", ""));
    }
  }
  while (!pending.empty()) {
    std::string d = pending.back();
    pending.pop_back();
    if (!is_valid_digest(d) || !keep.insert(d).second) {
      continue;
    }
    auto body = util::read_file(path_of(d));
    if (!body) {
      continue;
    }
    json m = json::parse(*body, nullptr, false);
    if (!m.is_object()) {
      continue;
    }
    for (const char* field : {"manifests", "layers"}) {
      if (auto it = m.find(field); it != m.end() && it->is_array()) {
        for (const auto& x : *it) {
          if (x.is_object()) {
            pending.push_back(x.value("digest", ""));
          }
        }
      }
    }
    if (auto c = m.find("config"); c != m.end() && c->is_object()) {
      pending.push_back(c->value("digest", ""));
    }
  }
  std::error_code ec;
  for (const char* alg : {"sha256", "sha384", "sha512"}) {
    for (const auto& e : fs::directory_iterator(m_root / "blobs" / alg, ec)) {
      std::string d = std::string(alg) + ":" + e.path().filename().string();
      if (!keep.contains(d)) {
        fs::remove(e.path(), ec);
      }
    }
  }
  auto day_ago = fs::file_time_type::clock::now() - std::chrono::hours(24);
  for (const auto& e : fs::directory_iterator(m_root / "ingest", ec)) {
    if (e.path().extension() != ".lock" && e.last_write_time(ec) < day_ago) {
      fs::remove(e.path(), ec);
    }
  }
  return {};
}

Result<void> forget_missing_manifests(const fs::path& root) {
  std::error_code ec;
  if (!fs::exists(root / "index.json", ec)) {
    return {};
  }
  FileLock lock(root / "index.lock");
  json doc = read_index(root);
  json kept = json::array();
  for (const auto& e : doc["manifests"]) {
    std::string digest = e.is_object() ? e.value("digest", "") : "";
    if (is_valid_digest(digest) && fs::exists(blob_path(root, digest), ec)) {
      kept.push_back(e);
    }
  }
  if (kept.size() == doc["manifests"].size()) {
    return {};
  }
  doc["manifests"] = std::move(kept);
  return util::write_file_atomic(root / "index.json", doc.dump());
}

Result<Descriptor> resolve_layout_ref(const fs::path& dir, const std::string& tag) {
  auto text = util::read_file(dir / "index.json");
  if (!text) {
    return util::fail(Errc::not_found, fmt::format("{} is not an OCI image layout: {}",
                                                   dir.string(), text.error().message()));
  }
  json doc = json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("manifests") || !doc["manifests"].is_array()) {
    return util::fail(Errc::invalid, fmt::format("invalid index.json in {}", dir.string()));
  }
  const json* found = nullptr;
  for (const auto& e : doc["manifests"]) {
    if (!e.is_object()) {
      continue;
    }
    std::string name;
    if (e.contains("annotations") && e["annotations"].is_object()) {
      name = e["annotations"].value(k_ref_annotation, "");
    }
    if (tag.empty() || name == tag) {
      if (tag.empty() && found != nullptr) {
        return util::fail(Errc::invalid,
                          fmt::format("more than one image in {}; name one with oci:{}:TAG",
                                      dir.string(), dir.string()));
      }
      found = &e;
      if (!tag.empty()) {
        break;
      }
    }
  }
  if (found == nullptr) {
    return util::fail(Errc::not_found,
                      tag.empty() ? fmt::format("no image in {}", dir.string())
                                  : fmt::format("no image named \"{}\" in {}", tag, dir.string()));
  }
  Descriptor d;
  d.media_type = found->value("mediaType", "");
  d.digest = found->value("digest", "");
  d.size = found->value("size", std::int64_t{-1});
  if (!is_valid_digest(d.digest)) {
    return util::fail(Errc::invalid, fmt::format("invalid digest in {}/index.json", dir.string()));
  }
  return d;
}

} // namespace opm::registry
