#include "serve/pogreb_cache.hpp"

#include "catalog/load.hpp"
#include "serve/cache.hpp"
#include "serve/cache_file.hpp"
#include "serve/cache_json.hpp"
#include "serve/digest.hpp"
#include "serve/metas.hpp"
#include "serve/pogreb_db.hpp"
#include "util/interrupt.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <sys/stat.h>

namespace opm::serve {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_pogreb_dir = "pogreb.v1";
constexpr std::string_view k_packages_key = "packages.json";
constexpr std::string_view k_metas_prefix = "metas/";
constexpr std::size_t k_meta_length_size = 4;
constexpr std::string_view k_staging_prefix = ".opm-cache-";
constexpr std::uint64_t k_segment_growth = 4; // dead records beside the live ones

Error failed(std::string_view prefix, const Error& cause) {
  return {Errc::invalid, fmt::format("{}{}", prefix, cause.message())};
}

Result<void> read_bundles(const PogrebRecords& records, PackageIndex& index) {
  TextPool pool;
  for (auto& [pkg_name, pkg] : index) {
    for (auto& [ch_name, ch] : pkg.channels) {
      for (auto& [name, entry] : ch.entries) {
        const std::string key = fmt::format("bundles/{}/{}/{}", pkg.name, ch.name, entry.name);
        auto found = records.find(key);
        if (found == records.end()) {
          return util::fail(Errc::invalid,
                            fmt::format("get bundle {}: not in the cache", util::go_quote(key)));
        }
        api::Bundle bundle;
        if (!bundle.ParseFromArray(found->second.data(), static_cast<int>(found->second.size()))) {
          return util::fail(Errc::invalid, fmt::format("decode bundle {}: not an api.Bundle",
                                                       util::go_quote(key)));
        }
        set_bundle(entry, std::move(bundle), pool);
      }
    }
  }
  return {};
}

std::uint32_t big_endian32(std::string_view bytes) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < k_meta_length_size; ++i) {
    v = (v << 8U) | static_cast<unsigned char>(bytes[i]);
  }
  return v;
}

// One metas/<schema>/<package> value: [4-byte big-endian length][protobuf Struct] records, kept
// as JSON texts in their stored order.
Result<MetaFiles> read_meta_records(std::string_view data) {
  MetaFiles files;
  while (data.size() >= k_meta_length_size) {
    const std::uint32_t length = big_endian32(data);
    data.remove_prefix(k_meta_length_size);
    if (data.size() < length) {
      return util::fail(Errc::invalid, "truncated meta blob in pogreb value");
    }
    google::protobuf::Struct object;
    std::string text;
    if (!object.ParseFromArray(data.data(), static_cast<int>(length)) ||
        !google::protobuf::util::MessageToJsonString(object, &text).ok()) {
      return util::fail(Errc::invalid, "unmarshal meta proto: not a google.protobuf.Struct");
    }
    files.emplace(fmt::format("{:08}", files.size()), std::move(text));
    data.remove_prefix(length);
  }
  if (!data.empty()) {
    return util::fail(Errc::invalid,
                      fmt::format("corrupt meta blob: {} trailing bytes", data.size()));
  }
  return files;
}

Result<MetaIndex> metas_of(const PogrebRecords& records) {
  MetaIndex metas;
  for (auto it = records.lower_bound(k_metas_prefix);
       it != records.end() && it->first.starts_with(k_metas_prefix); ++it) {
    std::string_view key = std::string_view(it->first).substr(k_metas_prefix.size());
    auto slash = key.find('/');
    std::string_view schema = key.substr(0, slash);
    std::string_view package = slash == std::string_view::npos ? "" : key.substr(slash + 1);
    if (auto ok = check_meta_key(schema, package); slash == std::string_view::npos || !ok) {
      return util::fail(Errc::invalid, fmt::format("read meta blobs {}: not a meta key",
                                                   util::go_quote(it->first)));
    }
    auto files = read_meta_records(it->second);
    if (!files) {
      return std::unexpected(failed("read meta blobs: ", files.error()));
    }
    if (!files->empty()) {
      metas[{std::string(schema), std::string(package)}] = std::move(*files);
    }
  }
  return metas;
}

Result<Catalog> catalog_of(const PogrebRecords& records) {
  auto packages = records.find(k_packages_key);
  auto index = parse_packages_json(packages == records.end() ? "" : packages->second);
  if (!index) {
    return std::unexpected(failed("get package index: ", index.error()));
  }
  OPM_TRY(read_bundles(records, *index));
  auto metas = OPM_TRY(metas_of(records));
  return Catalog{std::move(*index), std::move(metas)};
}

// The entry itself, as os.ReadDir reports it: a link to a directory is not one.
bool is_real_directory(const fs::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string trimmed(const std::string& text) {
  auto begin = text.find_first_not_of(" \t\r\n");
  auto end = text.find_last_not_of(" \t\r\n");
  return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
}

// Latest's order: the database is opened, then the digest checked, then the cache loaded.
Result<Catalog> checked_catalog(const fs::path& configs, const fs::path& pogreb) {
  const CacheLimits limits = cache_limits(configs);
  const PogrebLimits db_limits{.file = limits.packages_file * k_segment_growth,
                               .value = std::max(limits.packages_file, limits.bundle_file)};
  const fs::path db = pogreb / "db";
  if (!is_real_directory(db)) {
    return util::fail(Errc::invalid, fmt::format("open cache: {} is not a directory", db.string()));
  }
  auto read = read_pogreb_db(db, db_limits);
  if (!read) {
    return std::unexpected(failed("open cache: ", read.error()));
  }
  auto existing = read_digest_file(pogreb / "digest");
  if (!existing) {
    return std::unexpected(
        failed("integrity check failed: read existing cache digest: ", existing.error()));
  }
  auto computed = pogreb_digest(configs, read->records);
  if (!computed) {
    return std::unexpected(failed("integrity check failed: compute digest: ", computed.error()));
  }
  if (trimmed(*existing) != *computed) {
    return util::fail(Errc::invalid,
                      fmt::format("integrity check failed: cache requires rebuild: cache reports "
                                  "digest as {}, but computed digest is {}",
                                  util::go_quote(trimmed(*existing)), util::go_quote(*computed)));
  }
  auto catalog = catalog_of(read->records);
  if (!catalog) {
    return std::unexpected(failed("failed to load cache: ", catalog.error()));
  }
  return catalog;
}

Result<void> rename_entry(const fs::path& from, const fs::path& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    return util::fail(Errc::io, fmt::format("rename {} {}: {}", from.string(), to.string(),
                                            util::errno_text(errno)));
  }
  return {};
}

// The json cache is written into a private directory inside `dir` and moved into place, its
// digest last; `pogreb.v1` goes only then. Whenever this stops, `dir` holds either the stale
// pogreb cache (which wins, and is rebuilt again) or the whole json cache.
Result<void> replace_with_json_cache(const fs::path& dir, const Catalog& catalog,
                                     const fs::path& configs) {
  auto staging = util::TempTree::make(dir, k_staging_prefix, util::TempNaming::owned);
  if (!staging) {
    return util::fail(
        Errc::io, fmt::format("init cache: mkdir {}: {}", dir.string(), staging.error().message()));
  }
  const fs::path& tmp = staging->path();
  OPM_TRY(write_cache(tmp, catalog, configs));
  if (::unlink((dir / "digest").c_str()) != 0 && errno != ENOENT) {
    return util::fail(Errc::io, fmt::format("unlinkat {}: {}", (dir / "digest").string(),
                                            util::errno_text(errno)));
  }
  std::error_code ec;
  if (fs::exists(dir / "cache", ec)) {
    OPM_TRY(rename_entry(dir / "cache", tmp / "old-cache"));
  }
  OPM_TRY(rename_entry(tmp / "cache", dir / "cache"));
  OPM_TRY(rename_entry(tmp / "digest", dir / "digest"));
  return rename_entry(dir / k_pogreb_dir, tmp / "old-pogreb");
}

} // namespace

bool has_pogreb_cache(const fs::path& cache_dir) {
  return is_real_directory(cache_dir / k_pogreb_dir);
}

Result<std::string> pogreb_digest(const fs::path& configs, const PogrebRecords& records) {
  Fnv64a hash;
  OPM_TRY(catalog::walk_blobs(configs, [&](std::string_view blob) -> Result<void> {
    hash.update(blob);
    return {};
  }));
  for (const auto& [key, value] : records) {
    hash.update(key);
    hash.update(value);
  }
  return fmt::format("{:016x}", hash.value());
}

Result<Catalog> load_pogreb_cache(const Options& o) {
  const fs::path dir = o.cache_dir;
  auto checked = checked_catalog(o.configs_dir, dir / k_pogreb_dir);
  if (checked || o.enforce_integrity) {
    return checked;
  }
  constexpr std::string_view k_rebuild_failed =
      "failed to load or rebuild cache: failed to rebuild cache: ";
  auto catalog = load_catalog(o.configs_dir);
  if (!catalog) {
    return std::unexpected(failed(k_rebuild_failed, catalog.error()));
  }
  if (auto replaced = replace_with_json_cache(dir, *catalog, o.configs_dir); !replaced) {
    return std::unexpected(failed(k_rebuild_failed, replaced.error()));
  }
  return catalog;
}

} // namespace opm::serve
