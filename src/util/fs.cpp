#include "util/fs.hpp"

#include "util/c_free.hpp"
#include "util/interrupt.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <span>
#include <sys/stat.h>
#include <utility>

namespace opm::util {

std::string errno_text(int err) {
  // strerror spells these with capitals; Go lower-cases the first letter.
  std::string text = std::strerror(err);
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') {
    text[0] = static_cast<char>(text[0] - 'A' + 'a');
  }
  return text;
}

Fd::~Fd() { reset(); }

void Fd::reset(int f) {
  if (fd >= 0) {
    ::close(fd);
  }
  fd = f;
}

Result<std::size_t> read_some(int fd, char* into, std::size_t size,
                              const std::filesystem::path& path) {
  for (;;) {
    ssize_t n = ::read(fd, into, size);
    if (n >= 0) {
      return static_cast<std::size_t>(n);
    }
    if (errno != EINTR) {
      return fail(Errc::io, fmt::format("read {}: {}", path.string(), errno_text(errno)));
    }
  }
}

Result<std::size_t> size_to_read(int fd, const std::filesystem::path& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return fail(Errc::io, fmt::format("stat {}: {}", path.string(), errno_text(errno)));
  }
  if (S_ISDIR(st.st_mode)) {
    return fail(Errc::io, fmt::format("read {}: is a directory", path.string()));
  }
  return S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0;
}

Result<std::size_t> read_whole(int fd, const std::filesystem::path& path, const RoomFor& room) {
  // One byte more than fstat says, so that a file that grew is noticed and read on.
  const std::size_t expected = OPM_TRY(size_to_read(fd, path));
  std::span<char> into = room(std::max<std::size_t>(expected + 1, 4096), 0);
  std::size_t done = 0;
  for (;;) {
    if (done == into.size()) {
      into = room(into.size() * 2, done);
    }
    if (into.empty()) {
      return fail(Errc::io, fmt::format("read {}: {}", path.string(), errno_text(ENOMEM)));
    }
    const std::size_t n = OPM_TRY(read_some(fd, into.data() + done, into.size() - done, path));
    if (n == 0) {
      return done;
    }
    done += n;
  }
}

namespace {
// The rest of `fd` into `out`, read straight into its buffer, which grows without zeroing what
// it gains: the bytes are read into it at once.
Result<void> read_fd_into(int fd, const std::filesystem::path& path, std::string& out) {
  const std::size_t done = OPM_TRY(read_whole(fd, path, [&](std::size_t size, std::size_t) {
    out.resize_and_overwrite(size, [](char*, std::size_t n) { return n; });
    return std::span<char>(out);
  }));
  out.resize(done);
  return {};
}

Result<std::string> read_fd(int fd, const std::filesystem::path& path) {
  std::string content;
  OPM_TRY(read_fd_into(fd, path, content));
  return content;
}

} // namespace

Result<int> open_for_reading(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return fail(errno == ENOENT ? Errc::not_found : Errc::io,
                fmt::format("open {}: {}", path.string(), errno_text(errno)));
  }
  return fd;
}

Result<std::string> read_file(const std::filesystem::path& path) {
  Fd f(OPM_TRY(open_for_reading(path)));
  return read_fd(f.fd, path);
}

Result<void> read_file_into(const std::filesystem::path& path, std::string& out) {
  Fd f(OPM_TRY(open_for_reading(path)));
  return read_fd_into(f.fd, path, out);
}

Result<OpenFile> OpenFile::open(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return fail(errno == ENOENT ? Errc::not_found : Errc::io,
                fmt::format("open {}: {}", path.string(), errno_text(errno)));
  }
  return OpenFile(fd, path);
}

OpenFile::OpenFile(OpenFile&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_path(std::move(other.m_path)) {}

OpenFile& OpenFile::operator=(OpenFile&& other) noexcept {
  if (this != &other) {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
    m_fd = std::exchange(other.m_fd, -1);
    m_path = std::move(other.m_path);
  }
  return *this;
}

OpenFile::~OpenFile() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

Result<std::string> OpenFile::read_all() { return read_fd(m_fd, m_path); }

namespace {
// The temporary file of write_file_atomic: removed when it goes out of scope, and by an
// interrupt that ends the process while it exists.
class TempFile {
public:
  explicit TempFile(std::filesystem::path path) : m_path(std::move(path)) {
    register_temp_path(m_path);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    ::unlink(m_path.c_str());
    unregister_temp_path(m_path);
  }

private:
  std::filesystem::path m_path;
};

Result<void> write_all(int fd, std::string_view content, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return fail(Errc::io, fmt::format("write {}: {}", path.string(), errno_text(errno)));
    }
    done += static_cast<std::size_t>(n);
  }
  return {};
}
} // namespace

Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content,
                               Overwrite overwrite) {
  auto dir = path.parent_path();
  if (dir.empty()) {
    dir = ".";
  }
  std::random_device rd;
  auto tmp = dir / fmt::format(".{}.tmp-{:08x}", path.filename().string(), rd());
  Fd f(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
  if (f.fd < 0) {
    return fail(Errc::io, fmt::format("open {}: {}", path.string(), errno_text(errno)));
  }
  TempFile guard(tmp);
  OPM_TRY(write_all(f.fd, content, path));
  if (interrupted()) {
    return fail(Errc::io, fmt::format("write {}: interrupted", path.string()));
  }
  if (overwrite == Overwrite::no) {
    // link() fails if the target exists, so a concurrent writer cannot be clobbered.
    if (::link(tmp.c_str(), path.c_str()) != 0) {
      int err = errno;
      if (err == EEXIST) {
        return fail(Errc::invalid,
                    fmt::format("path {}: file already exists", go_quote(path.string())));
      }
      return fail(Errc::io, fmt::format("open {}: {}", path.string(), errno_text(err)));
    }
    return {};
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    return fail(Errc::io, fmt::format("rename {}: {}", path.string(), errno_text(errno)));
  }
  return {};
}

namespace {

namespace fs = std::filesystem;

// The directories made for a staging directory's parent, nearest first: removed again, if
// still empty, unless kept.
class MadeParents {
public:
  MadeParents(const MadeParents&) = delete;
  MadeParents& operator=(const MadeParents&) = delete;
  static Result<MadeParents> make(const fs::path& parent) {
    MadeParents made;
    std::error_code ec;
    for (fs::path p = parent; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
      made.m_dirs.push_back(p);
      if (p == p.parent_path()) {
        break;
      }
    }
    fs::create_directories(parent, ec);
    if (ec) {
      return fail(Errc::io, fmt::format("mkdir {}: {}", parent.string(), errno_text(ec.value())));
    }
    return made;
  }
  MadeParents(MadeParents&& other) noexcept : m_dirs(std::move(other.m_dirs)) {}
  MadeParents& operator=(MadeParents&&) = delete;
  ~MadeParents() {
    for (const auto& dir : m_dirs) {
      ::rmdir(dir.c_str());
    }
  }
  void keep() { m_dirs.clear(); }

private:
  MadeParents() = default;
  std::vector<fs::path> m_dirs;
};

int rename_no_replace(const fs::path& from, const fs::path& to) {
  return ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE);
}

// Every entry of `from` moved into `to` (called `shown` in messages), none replacing one
// already there; on failure the entries moved so far are removed from `to`.
Result<void> move_entries(const fs::path& from, const fs::path& to, const fs::path& shown) {
  auto entries = OPM_TRY(sorted_entries(from));
  std::vector<fs::path> moved;
  for (const auto& entry : entries) {
    if (rename_no_replace(from / entry.name, to / entry.name) != 0) {
      int err = errno;
      for (const auto& path : moved) {
        std::error_code ec;
        fs::remove_all(path, ec);
      }
      return fail(Errc::io,
                  fmt::format("rename {}: {}", (shown / entry.name).string(), errno_text(err)));
    }
    moved.push_back(to / entry.name);
  }
  return {};
}

mode_t current_umask() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

} // namespace

Result<void> build_dir_atomic(const fs::path& dir, const DirBuilder& build) {
  std::error_code ec;
  fs::path target = fs::absolute(dir, ec).lexically_normal();
  if (!target.has_filename()) {
    target = target.parent_path();
  }
  if (ec || !target.has_filename()) {
    return fail(Errc::invalid, fmt::format("mkdir {}: invalid output directory", dir.string()));
  }
  auto parents = OPM_TRY(MadeParents::make(target.parent_path()));
  // An existing directory is filled from inside, so that its parent need not be writable (a
  // mounted volume, say); a new one is made beside it and renamed.
  const bool exists = fs::is_directory(target, ec);
  auto made = exists ? TempTree::make(target, ".tmp-")
                     : TempTree::make(target.parent_path(),
                                      fmt::format(".{}.tmp-", target.filename().string()));
  if (!made) {
    return fail(Errc::io, fmt::format("mkdir {}: {}", dir.string(), made.error().message()));
  }
  TempTree staging = std::move(*made);
  OPM_TRY(build(staging.path()));
  if (interrupted()) {
    return fail(Errc::io, fmt::format("write {}: interrupted", dir.string()));
  }
  if (exists) {
    OPM_TRY(move_entries(staging.path(), target, dir));
  } else {
    ::chmod(staging.path().c_str(), 0777 & ~current_umask());
    if (rename_no_replace(staging.path(), target) != 0) {
      return fail(Errc::io, fmt::format("rename {}: {}", dir.string(), errno_text(errno)));
    }
  }
  parents.keep();
  return {};
}

Result<std::vector<DirEntry>> sorted_entries(const std::filesystem::path& dir) {
  std::unique_ptr<DIR, CFree<::closedir>> handle(::opendir(dir.c_str()));
  if (!handle) {
    return fail(errno == ENOENT ? Errc::not_found : Errc::io,
                fmt::format("open {}: {}", dir.string(), errno_text(errno)));
  }
  std::vector<DirEntry> entries;
  while (const dirent* e = ::readdir(handle.get())) {
    std::string_view name = e->d_name;
    if (name == "." || name == "..") {
      continue;
    }
    bool is_dir = e->d_type == DT_DIR;
    if (e->d_type == DT_UNKNOWN) {
      struct stat st {};
      is_dir = ::lstat((dir / name).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    }
    entries.push_back({std::string(name), is_dir});
  }
  std::sort(entries.begin(), entries.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return entries;
}

Result<std::string> read_regular(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return fail(Errc::io, fmt::format("stat {}: {}", path.string(), errno_text(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    return fail(Errc::io, fmt::format("read {}: not a regular file", path.string()));
  }
  return read_file(path);
}

} // namespace opm::util
