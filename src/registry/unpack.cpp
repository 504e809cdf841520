#include "registry/detail/unpack.hpp"

#include "registry/archive_library.hpp"
#include "registry/tree_path.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/strings.hpp"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <set>
#include <sys/stat.h>
#include <system_error>
#include <unordered_map>
#include <unordered_set>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t k_max_path = 4096;
constexpr std::size_t k_max_component = 255;
constexpr std::string_view k_whiteout_prefix = ".wh.";
constexpr std::string_view k_opaque = ".wh..wh..opq";

struct ArchiveReadFree {
  void operator()(archive* a) const noexcept { loaded_archive().read_free(a); }
};
using ArchiveRead = std::unique_ptr<archive, ArchiveReadFree>;

using util::Fd;

std::string join(const std::vector<std::string>& parts, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    if (i != 0) {
      out += '/';
    }
    out += parts[i];
  }
  return out;
}

std::vector<std::string> split_path(std::string_view p) {
  std::vector<std::string> out = util::split(p, '/');
  std::erase(out, std::string());
  return out;
}

// Lexically clean a tar name: leading '/' and "./" dropped, "." removed, ".." applied.
// nullopt when ".." climbs above the root.
std::optional<std::vector<std::string>> clean_name(std::string_view name) {
  std::vector<std::string> out;
  for (auto& part : split_path(name)) {
    if (part == ".") {
      continue;
    }
    if (part == "..") {
      if (out.empty()) {
        return std::nullopt;
      }
      out.pop_back();
      continue;
    }
    out.push_back(std::move(part));
  }
  return out;
}

class LayerApplier {
public:
  LayerApplier(int root_fd, fs::path root, const LayerFile& layer, const UnpackLimits& limits,
               const Log& log, const std::vector<std::string>& prefixes, std::uint64_t& total_bytes,
               std::uint64_t& total_entries)
      : m_root_fd(root_fd), m_root(std::move(root)), m_layer(layer), m_limits(limits), m_log(log),
        m_prefixes(prefixes), m_total_bytes(total_bytes), m_total_entries(total_entries) {}

  Result<void> run() {
    struct stat st {};
    std::uint64_t compressed = 0;
    if (::stat(m_layer.path.c_str(), &st) == 0) {
      compressed = static_cast<std::uint64_t>(st.st_size);
    }
    m_compressed = std::max<std::uint64_t>(compressed, 1);
    if (auto library = archive_library(); !library) {
      return std::unexpected(std::move(library).error());
    }
    ArchiveRead a(loaded_archive().read_new());
    loaded_archive().support_filter_gzip(a.get());
    loaded_archive().support_filter_zstd(a.get());
    loaded_archive().support_format_tar(a.get());
    loaded_archive().support_format_gnutar(a.get());
    loaded_archive().support_format_empty(a.get());
    if (loaded_archive().read_open_filename(a.get(), m_layer.path.c_str(), 1 << 16) != ARCHIVE_OK) {
      if (loaded_archive().error_number(a.get()) == EILSEQ) {
        return not_tar();
      }
      return fail_layer(loaded_archive().error_string(a.get()));
    }
    bool first = true;
    for (;;) {
      if (util::interrupted()) {
        return util::fail(Errc::io, "interrupted");
      }
      archive_entry* entry = nullptr;
      int rc = loaded_archive().read_next_header(a.get(), &entry);
      if (rc == ARCHIVE_EOF) {
        break;
      }
      if (rc < ARCHIVE_WARN) {
        if (first && loaded_archive().format(a.get()) != ARCHIVE_FORMAT_TAR &&
            (loaded_archive().format(a.get()) & ARCHIVE_FORMAT_BASE_MASK) != ARCHIVE_FORMAT_TAR) {
          return not_tar();
        }
        return fail_layer(loaded_archive().error_string(a.get()));
      }
      first = false;
      if (++m_total_entries > m_limits.max_entries) {
        return limit_error(fmt::format("more than {} entries", m_limits.max_entries));
      }
      OPM_TRY(apply(a.get(), entry));
    }
    return {};
  }

private:
  std::unexpected<Error> not_tar() const {
    return util::fail(Errc::invalid, fmt::format("layer {} ({}) is not a tar archive",
                                                 m_layer.digest, m_layer.media_type));
  }
  Error layer_error(std::string_view what) const {
    return Error(Errc::invalid, fmt::format("layer {}: {}", m_layer.digest, what));
  }
  std::unexpected<Error> fail_layer(const char* what) const {
    return std::unexpected(layer_error(what != nullptr ? what : "unreadable archive"));
  }
  std::unexpected<Error> limit_error(std::string_view what) const {
    return std::unexpected(layer_error(fmt::format("unpack limit exceeded: {}", what)));
  }
  std::unexpected<Error> escape_error(std::string_view name) const {
    return std::unexpected(
        layer_error(fmt::format("entry \"{}\" escapes the target directory", name)));
  }
  std::unexpected<Error> io_error(std::string_view op, const std::string& rel, int err) const {
    return std::unexpected(Error(Errc::io, fmt::format("layer {}: {} {}: {}", m_layer.digest, op,
                                                       rel, util::errno_text(err))));
  }

  bool wanted(const std::string& rel) const {
    if (m_prefixes.empty()) {
      return true;
    }
    for (const auto& p : m_prefixes) {
      if (rel == p || (rel.size() > p.size() && rel.starts_with(p) && rel[p.size()] == '/') ||
          (p.size() > rel.size() && p.starts_with(rel) && p[rel.size()] == '/')) {
        return true;
      }
    }
    return false;
  }

  // Resolve `parts` (a directory path) inside the root, following symlinks only when they
  // stay inside and creating missing directories when `create`. Returns the real relative
  // path, every component of which is a directory.
  Result<std::string> resolve_dir(std::vector<std::string> parts, std::string_view name,
                                  bool create) {
    auto resolved =
        resolve_in_tree(m_root_fd, std::move(parts), create ? Missing::create : Missing::fail);
    if (resolved) {
      return std::move(*resolved);
    }
    const TreePathError& e = resolved.error();
    switch (e.kind) {
    case TreePathError::Kind::escape:
      return escape_error(name);
    case TreePathError::Kind::loop:
      return std::unexpected(
          layer_error(fmt::format("entry \"{}\": too many levels of symbolic links", name)));
    case TreePathError::Kind::io:
      break;
    }
    return io_error(e.op, e.rel, e.err);
  }

  Result<void> remove_path(const std::string& rel) {
    std::error_code ec;
    fs::remove_all(m_root / rel, ec);
    if (ec) {
      return std::unexpected(Error(
          Errc::io, fmt::format("layer {}: remove {}: {}", m_layer.digest, rel, ec.message())));
    }
    return {};
  }

  void mark_written(const std::string& rel) {
    m_written.insert(rel);
    for (auto slash = rel.rfind('/'); slash != std::string::npos;
         slash = rel.rfind('/', slash - 1)) {
      if (!m_written_ancestors.insert(rel.substr(0, slash)).second || slash == 0) {
        break;
      }
    }
  }

  // Remove what lower layers left at `rel`, keeping what this layer wrote.
  Result<void> remove_lower(const std::string& rel) {
    struct stat st {};
    if (::fstatat(m_root_fd, rel.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return {};
    }
    bool written = m_written.contains(rel);
    bool holds_written = m_written_ancestors.contains(rel);
    if (written && !S_ISDIR(st.st_mode)) {
      return {};
    }
    if (!written && !holds_written) {
      return remove_path(rel);
    }
    return remove_lower_children(rel);
  }

  Result<void> remove_lower_children(const std::string& rel) {
    std::error_code ec;
    std::vector<std::string> children;
    for (const auto& e : fs::directory_iterator(rel.empty() ? m_root : m_root / rel, ec)) {
      children.push_back(e.path().filename().string());
    }
    for (const auto& c : children) {
      OPM_TRY(remove_lower(rel.empty() ? c : rel + "/" + c));
    }
    return {};
  }

  Result<void> apply(archive* a, archive_entry* entry) {
    const char* raw = loaded_archive().entry_pathname(entry);
    std::string name = raw != nullptr ? raw : "";
    if (name.size() > k_max_path) {
      return std::unexpected(
          layer_error(fmt::format("entry name longer than {} bytes", k_max_path)));
    }
    auto parts = clean_name(name);
    if (!parts) {
      return escape_error(name);
    }
    for (const auto& p : *parts) {
      if (p.size() > k_max_component) {
        return std::unexpected(
            layer_error(fmt::format("entry \"{}\": name component longer than 255 bytes", name)));
      }
    }
    if (parts->empty()) {
      return {}; // the root itself
    }
    std::string base = parts->back();
    parts->pop_back();
    std::string logical = join(*parts, parts->size());
    logical += logical.empty() ? base : "/" + base;
    if (!wanted(logical)) {
      return {};
    }

    if (base.starts_with(k_whiteout_prefix)) {
      std::string victim = base.substr(k_whiteout_prefix.size());
      if (base != k_opaque && (victim.empty() || victim == "." || victim == "..")) {
        return std::unexpected(layer_error(fmt::format("invalid whiteout entry \"{}\"", name)));
      }
      auto dir = resolve_dir(*parts, name, false);
      if (!dir) {
        return {}; // the directory is not there: nothing to hide
      }
      if (base == k_opaque) {
        return remove_lower_children(*dir);
      }
      return remove_lower(dir->empty() ? victim : *dir + "/" + victim);
    }

    std::string dir = OPM_TRY(resolve_dir(*parts, name, true));
    std::string rel = dir.empty() ? base : dir + "/" + base;
    mode_t type = loaded_archive().entry_filetype(entry);
    mode_t perm = loaded_archive().entry_perm(entry) & 0777;
    const char* hardlink = loaded_archive().entry_hardlink(entry);

    if (hardlink != nullptr) {
      return apply_hardlink(name, hardlink, rel);
    }
    switch (type) {
    case AE_IFDIR:
      return apply_dir(rel, perm);
    case AE_IFREG:
      return apply_file(a, entry, name, rel, perm);
    case AE_IFLNK:
      return apply_symlink(entry, rel);
    default:
      m_log.debug("layer {}: skipping special file \"{}\"", m_layer.digest, name);
      return {};
    }
  }

  Result<void> clear_for(const std::string& rel, bool keep_dir) {
    struct stat st {};
    if (::fstatat(m_root_fd, rel.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return {};
    }
    if (S_ISDIR(st.st_mode)) {
      if (keep_dir) {
        return {};
      }
      return remove_path(rel);
    }
    if (::unlinkat(m_root_fd, rel.c_str(), 0) != 0) {
      return io_error("unlink", rel, errno);
    }
    return {};
  }

  Result<void> apply_dir(const std::string& rel, mode_t perm) {
    OPM_TRY(clear_for(rel, true));
    if (::mkdirat(m_root_fd, rel.c_str(), 0700) != 0 && errno != EEXIST) {
      return io_error("mkdir", rel, errno);
    }
    ::fchmodat(m_root_fd, rel.c_str(), (perm | 0700) & 0777, 0);
    mark_written(rel);
    return {};
  }

  // Count the file's bytes up to `end` (its logical size, holes of sparse entries included)
  // against the limits; `charged` is what was counted for it so far.
  Result<void> charge(const std::string& name, std::uint64_t end, std::uint64_t& charged) {
    if (end <= charged) {
      return {};
    }
    std::uint64_t more = end - charged;
    charged = end;
    m_layer_bytes += more;
    m_total_bytes += more;
    if (end > m_limits.max_file_bytes) {
      return limit_error(
          fmt::format("file \"{}\" is larger than {} bytes", name, m_limits.max_file_bytes));
    }
    if (m_total_bytes > m_limits.max_total_bytes) {
      return limit_error(fmt::format("more than {} bytes in total", m_limits.max_total_bytes));
    }
    if (m_layer_bytes > m_limits.ratio_floor_bytes &&
        m_layer_bytes / m_compressed > m_limits.max_ratio) {
      return limit_error(fmt::format("compression ratio above {}:1", m_limits.max_ratio));
    }
    return {};
  }

  Result<void> apply_file(archive* a, archive_entry* entry, const std::string& name,
                          const std::string& rel, mode_t perm) {
    std::uint64_t charged = 0;
    std::uint64_t logical = 0;
    if (loaded_archive().entry_size_is_set(entry) && loaded_archive().entry_size(entry) > 0) {
      logical = static_cast<std::uint64_t>(loaded_archive().entry_size(entry));
      OPM_TRY(charge(name, logical, charged));
    }
    OPM_TRY(clear_for(rel, false));
    Fd fd(::openat(m_root_fd, rel.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                   0600));
    if (fd.fd < 0) {
      return io_error("create", rel, errno);
    }
    std::uint64_t size = 0;
    const void* buf = nullptr;
    std::size_t len = 0;
    la_int64_t offset = 0;
    for (;;) {
      int rc = loaded_archive().read_data_block(a, &buf, &len, &offset);
      if (rc == ARCHIVE_EOF) {
        break;
      }
      if (rc < ARCHIVE_WARN) {
        return fail_layer(loaded_archive().error_string(a));
      }
      if (offset >= 0 && static_cast<std::uint64_t>(offset) != size) {
        // Sparse entry: seek to keep holes.
        if (::lseek(fd.fd, offset, SEEK_SET) < 0) {
          return io_error("seek", rel, errno);
        }
        size = static_cast<std::uint64_t>(offset);
      }
      size += len;
      OPM_TRY(charge(name, size, charged));
      OPM_TRY(write_all(fd.fd, static_cast<const char*>(buf), len, rel));
    }
    if (::ftruncate(fd.fd, static_cast<off_t>(std::max(size, logical))) != 0) {
      return io_error("truncate", rel, errno);
    }
    ::fchmod(fd.fd, (perm | 0200) & 0777);
    mark_written(rel);
    return {};
  }

  Result<void> write_all(int fd, const char* p, std::size_t left, const std::string& rel) {
    while (left > 0) {
      ssize_t n = ::write(fd, p, left);
      if (n < 0) {
        if (errno == EINTR) {
          continue;
        }
        return io_error("write", rel, errno);
      }
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    return {};
  }

  Result<void> apply_symlink(archive_entry* entry, const std::string& rel) {
    const char* target = loaded_archive().entry_symlink(entry);
    OPM_TRY(clear_for(rel, false));
    if (::symlinkat(target != nullptr ? target : "", m_root_fd, rel.c_str()) != 0) {
      return io_error("symlink", rel, errno);
    }
    mark_written(rel);
    return {};
  }

  Result<void> apply_hardlink(const std::string& name, std::string_view target,
                              const std::string& rel) {
    auto parts = clean_name(target);
    if (!parts || parts->empty()) {
      return escape_error(target);
    }
    std::string base = parts->back();
    parts->pop_back();
    auto dir = resolve_dir(*parts, target, false);
    std::string target_rel;
    struct stat st {};
    bool ok = false;
    if (dir) {
      target_rel = dir->empty() ? base : *dir + "/" + base;
      ok = ::fstatat(m_root_fd, target_rel.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISREG(st.st_mode);
    } else if (dir.error().message().find("escapes") != std::string::npos) {
      return std::unexpected(std::move(dir).error());
    }
    if (!ok) {
      return std::unexpected(layer_error(fmt::format(
          "hard link \"{}\" to \"{}\": the target is not a file extracted earlier", name, target)));
    }
    if (target_rel == rel) {
      return {};
    }
    OPM_TRY(clear_for(rel, false));
    if (::linkat(m_root_fd, target_rel.c_str(), m_root_fd, rel.c_str(), 0) != 0) {
      return io_error("link", rel, errno);
    }
    mark_written(rel);
    return {};
  }

  int m_root_fd;
  fs::path m_root;
  const LayerFile& m_layer;
  const UnpackLimits& m_limits;
  const Log& m_log;
  const std::vector<std::string>& m_prefixes;
  std::uint64_t& m_total_bytes;
  std::uint64_t& m_total_entries;
  std::uint64_t m_layer_bytes = 0;
  std::uint64_t m_compressed = 1;
  std::unordered_set<std::string> m_written;
  std::unordered_set<std::string> m_written_ancestors;
};

// Every symbolic link of the finished tree that is absolute or climbs with ".." rewritten to
// a relative target that reaches the file it means inside the tree without passing through
// another link; links that only descend stay as they are. Readers that follow links then
// never leave the tree. Links that climb above the root are refused.
Result<void> confine_symlinks(int root_fd, const fs::path& root) {
  std::vector<std::string> links;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_symlink(ec)) {
      links.push_back(it->path().lexically_relative(root).string());
    }
  }
  if (ec) {
    return util::fail(Errc::io, fmt::format("walk {}: {}", root.string(), ec.message()));
  }
  for (const auto& rel : links) {
    std::array<char, k_max_path + 1> buf{};
    ssize_t n = ::readlinkat(root_fd, rel.c_str(), buf.data(), k_max_path);
    if (n < 0) {
      return util::fail(Errc::io, fmt::format("readlink {}: {}", rel, util::errno_text(errno)));
    }
    std::string target(buf.data(), static_cast<std::size_t>(n));
    auto resolved = resolve_in_tree(root_fd, tree_path_parts(rel), Missing::lexical);
    if (!resolved) {
      std::string_view why = resolved.error().kind == TreePathError::Kind::loop
                                 ? "is part of a loop of symbolic links"
                                 : "points outside the image";
      return util::fail(Errc::invalid,
                        fmt::format("symbolic link \"{}\" to \"{}\" {}", rel, target, why));
    }
    auto target_parts = tree_path_parts(target);
    if (!target.starts_with('/') && std::ranges::find(target_parts, "..") == target_parts.end()) {
      continue; // it only descends from its directory: it stays inside as it is
    }
    std::string confined;
    for (std::size_t depth = tree_path_parts(rel).size() - 1; depth > 0; --depth) {
      confined += "../";
    }
    confined += resolved->empty() ? "." : *resolved;
    if (confined == target) {
      continue;
    }
    if (::unlinkat(root_fd, rel.c_str(), 0) != 0 ||
        ::symlinkat(confined.c_str(), root_fd, rel.c_str()) != 0) {
      return util::fail(Errc::io, fmt::format("symlink {}: {}", rel, util::errno_text(errno)));
    }
  }
  return {};
}

} // namespace

Result<void> unpack_layers(const std::vector<LayerFile>& layers, const fs::path& dest,
                           const UnpackLimits& limits, const Log& log,
                           const std::vector<std::string>& prefixes) {
  std::error_code ec;
  fs::path target = dest.has_filename() ? dest : dest.parent_path();
  if (fs::exists(target, ec)) {
    if (!fs::is_directory(target, ec) || !fs::is_empty(target, ec)) {
      return util::fail(Errc::io,
                        fmt::format("unpack destination {} exists and is not an empty directory",
                                    target.string()));
    }
  }
  auto tree = util::TempTree::make(target.parent_path(), target.filename().string() + ".partial-");
  if (!tree) {
    return util::fail(
        Errc::io, fmt::format("mkdir {}.partial-: {}", target.string(), tree.error().message()));
  }
  const fs::path partial = tree->path();
  Fd root(::open(partial.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (root.fd < 0) {
    return util::fail(Errc::io,
                      fmt::format("open {}: {}", partial.string(), util::errno_text(errno)));
  }
  std::uint64_t total_bytes = 0;
  std::uint64_t total_entries = 0;
  for (const auto& layer : layers) {
    LayerApplier applier(root.fd, partial, layer, limits, log, prefixes, total_bytes,
                         total_entries);
    OPM_TRY(applier.run());
  }
  OPM_TRY(confine_symlinks(root.fd, partial));
  ::chmod(partial.c_str(), 0755);
  if (fs::exists(target, ec)) {
    fs::remove(target, ec);
  }
  if (::rename(partial.c_str(), target.c_str()) != 0) {
    return util::fail(Errc::io, fmt::format("rename {} {}: {}", partial.string(), target.string(),
                                            util::errno_text(errno)));
  }
  (void)tree->release(); // it is the target now
  return {};
}

} // namespace opm::registry
