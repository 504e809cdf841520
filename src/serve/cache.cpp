#include "serve/cache.hpp"

#include "catalog/load.hpp"
#include "serve/bundle_reader.hpp"
#include "serve/cache_file.hpp"
#include "serve/cache_json.hpp"
#include "serve/digest.hpp"
#include "serve/metas.hpp"
#include "serve/pogreb_cache.hpp"
#include "util/fs.hpp"
#include "util/scratch_heap.hpp"
#include "validate/validate.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <sys/stat.h>

namespace opm::serve {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_digest_file = "digest";
constexpr const char* k_json_dir = "cache";
constexpr const char* k_packages_file = "packages.json";
constexpr mode_t k_dir_mode = 0750;
constexpr mode_t k_file_mode = 0640;

// The cache's files are written with exact modes (group access for random container UIDs).
class UmaskZero {
public:
  UmaskZero() : m_old(::umask(0)) {}
  UmaskZero(const UmaskZero&) = delete;
  UmaskZero& operator=(const UmaskZero&) = delete;
  ~UmaskZero() { ::umask(m_old); }

private:
  mode_t m_old;
};

std::string bundle_file_name(const IndexPackage& pkg, const IndexChannel& ch, const IndexEntry& e) {
  return fmt::format("{}_{}_{}.json", pkg.name, ch.name, e.name);
}

Result<void> write_mode(const fs::path& path, std::string_view content, mode_t mode) {
  util::Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode));
  if (!fd.valid()) {
    return util::fail(Errc::io, fmt::format("open {}: {}", path.string(), util::errno_text(errno)));
  }
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd.fd, content.data() + done, content.size() - done);
    if (n < 0) {
      return util::fail(Errc::io,
                        fmt::format("write {}: {}", path.string(), util::errno_text(errno)));
    }
    done += static_cast<std::size_t>(n);
  }
  return {};
}

// os.MkdirAll then remove every entry, as upstream's ensureEmptyDir.
Result<void> ensure_empty_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return util::fail(Errc::io,
                      fmt::format("mkdir {}: {}", dir.string(), util::errno_text(ec.value())));
  }
  ::chmod(dir.c_str(), k_dir_mode);
  for (const auto& entry : OPM_TRY(util::sorted_entries(dir))) {
    fs::remove_all(dir / entry.name, ec);
    if (ec) {
      return util::fail(Errc::io, fmt::format("unlinkat {}: {}", (dir / entry.name).string(),
                                              util::errno_text(ec.value())));
    }
  }
  return {};
}

// Latest's json backend Init: `cache/` is emptied and the digest removed; whatever else
// the directory holds is left alone (v1.26.5 emptied the whole directory).
Result<void> init_cache_dir(const fs::path& cache_dir) {
  std::error_code ec;
  if (fs::create_directories(cache_dir, ec)) {
    ::chmod(cache_dir.c_str(), k_dir_mode);
  }
  if (auto ok = ensure_empty_dir(cache_dir / k_json_dir); !ok) {
    return util::fail(Errc::io,
                      "init cache: failed to ensure JSON cache directory: " + ok.error().message());
  }
  const fs::path digest = cache_dir / k_digest_file;
  if (::unlink(digest.c_str()) != 0 && errno != ENOENT) {
    return util::fail(Errc::io,
                      fmt::format("init cache: failed to remove existing JSON digest file: "
                                  "unlinkat {}: {}",
                                  digest.string(), util::errno_text(errno)));
  }
  return {};
}

Result<std::string> existing_digest(const fs::path& cache_dir) {
  auto text = OPM_TRY(read_digest_file(cache_dir / k_digest_file));
  auto begin = text.find_first_not_of(" \t\r\n");
  auto end = text.find_last_not_of(" \t\r\n");
  return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
}

Result<void> check_integrity(const fs::path& configs, const fs::path& cache_dir) {
  auto existing = existing_digest(cache_dir);
  if (!existing) {
    return util::fail(Errc::invalid, "read existing cache digest: " + existing.error().message());
  }
  auto computed = cache_digest(configs, cache_dir);
  if (!computed) {
    return util::fail(Errc::invalid, "compute digest: " + computed.error().message());
  }
  if (*existing != *computed) {
    return util::fail(Errc::invalid,
                      fmt::format("cache requires rebuild: cache reports digest as \"{}\", but "
                                  "computed digest is \"{}\"",
                                  *existing, *computed));
  }
  return {};
}

// Upstream's cache.New: an empty or missing directory, or one holding `cache` and `digest`.
Result<void> check_layout(const fs::path& cache_dir) {
  auto entries = util::sorted_entries(cache_dir);
  if (!entries) {
    if (entries.error().code() == Errc::not_found) {
      return {};
    }
    return util::fail(Errc::io,
                      "detect cache format: read cache directory: " + entries.error().message());
  }
  bool has_cache = false;
  bool has_digest = false;
  for (const auto& e : *entries) {
    has_cache = has_cache || e.name == k_json_dir;
    has_digest = has_digest || e.name == k_digest_file;
  }
  if (entries->empty() || (has_cache && has_digest)) {
    return {};
  }
  return util::fail(Errc::invalid, "cache directory has unexpected contents");
}

void release_manifests(catalog::DeclarativeConfig& cfg, std::string_view package) {
  for (auto& bundle : cfg.bundles) {
    if (bundle.package != package) {
      continue;
    }
    bundle.csv_index.reset();
    std::vector<std::string>().swap(bundle.objects);
    std::erase_if(bundle.properties, [](const catalog::Property& p) {
      return p.type == catalog::k_prop_bundle_object || p.type == catalog::k_prop_csv_metadata;
    });
  }
}

// The decoded form of each olm.csv.metadata and olm.bundle.object value: the index is made
// from their JSON texts, so the trees can go as soon as the model is validated.
void release_manifest_trees(catalog::DeclarativeConfig& cfg) {
  for (auto& bundle : cfg.bundles) {
    for (auto& p : bundle.properties) {
      if (!p.raw.empty() &&
          (p.type == catalog::k_prop_csv_metadata || p.type == catalog::k_prop_bundle_object)) {
        Json().swap(p.value);
      }
    }
  }
}

} // namespace

namespace {

// The index and the other objects of a loaded catalog, its manifests released as they are
// indexed so that they are not held twice at the peak.
Result<Catalog> index_catalog(catalog::DeclarativeConfig& cfg, TextPool& pool) {
  // Each part is made among passing blocks, then kept whole (util::KeptHeap::keep).
  MetaIndex metas;
  {
    MetaIndex made = OPM_TRY(index_metas(cfg.others));
    const util::KeptHeap kept;
    metas = kept.keep(std::move(made));
  }
  std::vector<catalog::Meta>().swap(cfg.others);
  auto model = OPM_TRY(validate::valid_model(cfg));
  release_manifest_trees(cfg);
  PackageIndex index;
  for (const auto& [name, pkg] : model.packages) {
    IndexPackage made = OPM_TRY(index_package(pkg, pool));
    {
      const util::KeptHeap kept;
      index.emplace(name, kept.keep(std::move(made)));
    }
    release_manifests(cfg, name);
  }
  return Catalog{std::move(index), std::move(metas)};
}

// Adds a part of the catalog to `whole`; false when a package is in both.
bool add_part(Catalog& whole, Catalog&& part) {
  for (auto& [name, pkg] : part.index) {
    if (!whole.index.emplace(name, std::move(pkg)).second) {
      return false;
    }
  }
  for (auto& [key, files] : part.metas) {
    whole.metas[key].merge(files);
  }
  return true;
}

// One package directory loaded and indexed; nothing when it does not load or validate alone.
std::optional<Catalog> load_and_index(const fs::path& dir) {
  // The documents and the model are freed before the part is returned; only the index is kept.
  util::ScratchHeap scratch;
  auto cfg = catalog::load_dir(dir, {.threads = 1, .read_into = catalog::ReadInto::heap});
  if (!cfg) {
    return std::nullopt;
  }
  TextPool pool;
  auto part = index_catalog(*cfg, pool);
  if (!part) {
    return std::nullopt;
  }
  return std::move(*part);
}

// The bytes of the regular files under `dir`, as far as they can be listed.
std::uintmax_t bytes_under(const fs::path& dir) {
  std::uintmax_t total = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) {
      total += it->file_size(ec);
    }
  }
  return total;
}

// A package directory and the bytes of its files.
struct PackageDir {
  fs::path path;
  std::uintmax_t bytes = 0;
};

// Package directories, largest first, so that the two threads finish close together.
std::vector<PackageDir> largest_first(const std::string& dir,
                                      const std::vector<util::DirEntry>& entries) {
  std::vector<PackageDir> sized;
  sized.reserve(entries.size());
  for (const auto& e : entries) {
    auto path = fs::path(dir) / e.name;
    const std::uintmax_t bytes = bytes_under(path);
    sized.push_back(PackageDir{std::move(path), bytes});
  }
  std::ranges::stable_sort(sized, std::ranges::greater(), &PackageDir::bytes);
  return sized;
}

// A directory of at least this many bytes is loaded on a scratch heap of its own, whose pages
// go back to the system as soon as it is indexed. Smaller ones, the long tail of a catalog,
// share one scratch heap per thread: each reuses the pages the one before emptied (a fresh
// huge page is zeroed whole, however little of it a small package uses), and what stays
// resident meanwhile is one small package's worth.
constexpr std::uintmax_t k_own_heap_bytes = std::uintmax_t{1} << 20;

// A catalog laid out as one directory per package, nothing else at its top, loaded and
// indexed one directory at a time on each of two threads, so that only two packages' decoded
// documents are held at once. Nothing when it is laid out otherwise, or when a directory does
// not load or validate on its own (a package spread over directories, or a catalog with an
// error): the whole catalog is then loaded at once, which gives upstream's answer.
std::optional<Catalog> load_by_directory(const std::string& dir) {
  auto entries = util::sorted_entries(dir);
  if (!entries || entries->empty() ||
      !std::ranges::all_of(*entries, [](const util::DirEntry& e) { return e.is_dir; })) {
    return std::nullopt;
  }
  const auto dirs = largest_first(dir, *entries);
  std::vector<std::optional<Catalog>> parts(dirs.size());
  std::atomic<std::size_t> next = 0;
  std::atomic<bool> failed = false;
  // Each thread takes the next directory as soon as it is free, so one large package does
  // not hold the other thread back.
  auto take_directories = [&] {
    std::optional<util::ScratchHeap> shared; // load_and_index's own heap then does nothing
    for (std::size_t i = next++; i < dirs.size() && !failed; i = next++) {
      if (dirs[i].bytes >= k_own_heap_bytes) {
        shared.reset();
      } else if (!shared) {
        shared.emplace();
      }
      parts[i] = load_and_index(dirs[i].path);
      if (!parts[i]) {
        failed = true;
      }
    }
  };
  auto helper = std::async(std::launch::async, take_directories);
  take_directories();
  helper.get();
  if (failed) {
    return std::nullopt;
  }
  Catalog whole;
  for (auto& part : parts) {
    if (!add_part(whole, std::move(*part))) {
      return std::nullopt;
    }
  }
  return whole;
}

} // namespace

Result<Catalog> load_catalog(const std::string& dir) {
  // Upstream walks os.DirFS(dir), whose root is "<dir>/.".
  const std::string root = dir + "/.";
  struct stat st {};
  if (::stat(root.c_str(), &st) != 0) {
    return util::fail(Errc::not_found, fmt::format("stat {}: {}", root, util::errno_text(errno)));
  }
  if (auto by_directory = load_by_directory(dir)) {
    return std::move(*by_directory);
  }
  auto cfg = OPM_TRY(catalog::load_dir(dir));
  TextPool pool;
  return index_catalog(cfg, pool);
}

Result<std::string> cache_digest(const fs::path& configs, const fs::path& cache_dir) {
  Fnv64a hash;
  OPM_TRY(hash_tree_as_tar(configs, hash));
  if (auto cached = hash_tree_as_tar(cache_dir / k_json_dir, hash);
      !cached && cached.error().code() != Errc::not_found) {
    return util::fail(Errc::io, "compute hash: " + cached.error().message());
  }
  return fmt::format("{:016x}", hash.value());
}

Result<void> write_cache(const fs::path& cache_dir, const Catalog& catalog,
                         const fs::path& configs) {
  const PackageIndex& index = catalog.index;
  UmaskZero umask_zero;
  const fs::path json_dir = cache_dir / k_json_dir;
  OPM_TRY(init_cache_dir(cache_dir));
  OPM_TRY(write_mode(json_dir / k_packages_file, packages_json(index), k_file_mode));
  for (const auto& [pkg_name, pkg] : index) {
    for (const auto& [ch_name, ch] : pkg.channels) {
      for (const auto& [name, e] : ch.entries) {
        OPM_TRY(write_mode(json_dir / bundle_file_name(pkg, ch, e), bundle_json(e), k_file_mode));
      }
    }
  }
  OPM_TRY(write_metas(json_dir, catalog.metas, k_dir_mode,
                      [](const fs::path& path, std::string_view text) {
                        return write_mode(path, text, k_file_mode);
                      }));
  auto digest = OPM_TRY(cache_digest(configs, cache_dir));
  return write_mode(cache_dir / k_digest_file, digest, k_file_mode);
}

Result<Catalog> read_cache(const fs::path& cache_dir, const CacheLimits& limits,
                           const std::atomic<bool>& stop) {
  const fs::path json_dir = cache_dir / k_json_dir;
  std::string text;
  OPM_TRY(read_cache_file(json_dir / k_packages_file, limits.packages_file, text));
  auto index = OPM_TRY(parse_packages_json(text));
  TextPool pool;
  for (auto& [pkg_name, pkg] : index) {
    for (auto& [ch_name, ch] : pkg.channels) {
      for (auto& [name, e] : ch.entries) {
        if (stop) {
          return util::fail(Errc::invalid, "cache read abandoned");
        }
        OPM_TRY(read_cache_file(json_dir / bundle_file_name(pkg, ch, e), limits.bundle_file, text));
        auto bundle = read_bundle_json(text);
        if (!bundle) {
          return util::fail(Errc::invalid, fmt::format("convert bundle \"{}\": {}", e.name,
                                                       bundle.error().message()));
        }
        set_bundle(e, std::move(*bundle), pool);
      }
    }
  }
  auto metas = OPM_TRY(read_metas(json_dir));
  return Catalog{std::move(index), std::move(metas)};
}

namespace {

struct CachedRead {
  Result<void> integrity;
  Result<Catalog> catalog;
};

// The digest (a serial hash over the catalog and the cache) and reading the cache do not
// depend on each other, so they run side by side; the read is only used when the digest
// matches. Neither starts on a cache holding something it cannot have: a file larger than
// the catalog can produce (or that never ends), a FIFO, a device.
CachedRead read_checked_cache(const fs::path& configs, const fs::path& cache_dir) {
  const CacheLimits limits = cache_limits(configs);
  if (auto surveyed = survey_cache_files(cache_dir / k_json_dir, limits); !surveyed) {
    auto refused =
        util::fail(Errc::invalid, "cache requires rebuild: " + surveyed.error().message());
    return {refused, refused};
  }
  std::atomic<bool> stale = false;
  auto integrity = std::async(std::launch::async, [&] {
    auto ok = check_integrity(configs, cache_dir);
    stale = !ok;
    return ok;
  });
  auto catalog = read_cache(cache_dir, limits, stale);
  return {integrity.get(), std::move(catalog)};
}

} // namespace

Result<Store> load_store(const Options& o) {
  if (o.cache_dir.empty()) {
    return Store(OPM_TRY(load_catalog(o.configs_dir)));
  }
  const fs::path cache_dir = o.cache_dir;
  CacheDirLock lock(cache_dir, !o.enforce_integrity);
  if (has_pogreb_cache(cache_dir)) {
    return Store(OPM_TRY(load_pogreb_cache(o)));
  }
  OPM_TRY(check_layout(cache_dir));
  auto cached = read_checked_cache(o.configs_dir, cache_dir);
  if (cached.integrity) {
    return Store(OPM_TRY(std::move(cached.catalog)));
  }
  if (o.enforce_integrity) {
    return std::unexpected(std::move(cached.integrity).error());
  }
  auto catalog = OPM_TRY(load_catalog(o.configs_dir));
  OPM_TRY(write_cache(cache_dir, catalog, o.configs_dir));
  return Store(std::move(catalog));
}

} // namespace opm::serve
