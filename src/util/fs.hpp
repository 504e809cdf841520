#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace opm::util {

// Owns a file descriptor: closes it when it goes away.
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset(other.release());
    }
    return *this;
  }
  ~Fd();
  [[nodiscard]] bool valid() const { return fd >= 0; }
  // Close the descriptor held (if any) and hold `f` instead.
  void reset(int f = -1);
  // Give the descriptor up without closing it.
  [[nodiscard]] int release() { return std::exchange(fd, -1); }
};

// Whole file into memory. Errors read as Go's: "open <path>: no such file or directory",
// "read <path>: is a directory".
Result<std::string> read_file(const std::filesystem::path& path);
// The same into `out`, whose allocation is reused from one file to the next.
Result<void> read_file_into(const std::filesystem::path& path, std::string& out);
// The parts of it: `path` opened for reading ("open <path>: ..."), and the size fstat gives a
// regular file (0 for a stream), or "read <path>: is a directory".
Result<int> open_for_reading(const std::filesystem::path& path);
Result<std::size_t> size_to_read(int fd, const std::filesystem::path& path);
// Room for the bytes of a file: at least `size` bytes whose first `kept` hold what was read so
// far; empty when there is no memory for them.
using RoomFor = std::function<std::span<char>(std::size_t size, std::size_t kept)>;
// The rest of `fd` (whose name is `path`) read into the room `room` gives, asked for the size
// fstat gives and one byte more, and twice as much each time it fills; how many bytes were read.
Result<std::size_t> read_whole(int fd, const std::filesystem::path& path, const RoomFor& room);

// A file opened now and read later, for callers that must report Go's os.Open and
// io.ReadAll failures separately and in upstream's order: "open <path>: ...", then
// "read <path>: is a directory".
class OpenFile {
public:
  static Result<OpenFile> open(const std::filesystem::path& path);
  OpenFile(OpenFile&& other) noexcept;
  OpenFile& operator=(OpenFile&& other) noexcept;
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile();

  Result<std::string> read_all();

private:
  OpenFile(int fd, std::filesystem::path path) : m_fd(fd), m_path(std::move(path)) {}
  int m_fd = -1;
  std::filesystem::path m_path;
};

// Write `content` to `path` atomically: a temp file beside it, then rename, so a reader
// never sees a half-written file. With `exclusive`, fails if `path` exists.
enum class Overwrite { yes, no };
Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content,
                               Overwrite overwrite = Overwrite::yes);

// Makes the directory `dir` all at once: `build` fills a new private directory, which then
// takes `dir`'s place. When `dir` does not exist, that directory is made beside it (in its
// parent, made if missing) and renamed to it, with mode 0777 before the umask; when `dir` is an
// empty directory, it is made inside `dir` (hidden) and its entries are moved up. On any failure,
// the new directory, parents made for it and entries already moved are removed again, so `dir` is
// left as it was.
using DirBuilder = std::function<Result<void>(const std::filesystem::path& staging)>;
Result<void> build_dir_atomic(const std::filesystem::path& dir, const DirBuilder& build);

// A directory entry as readdir gives it.
struct DirEntry {
  std::string name;
  bool is_dir = false; // the entry itself (a symbolic link is not a directory)
};

// The entries of `dir` in byte-wise name order, hidden ones included.
// Error: "open <dir>: <reason>" (not_found when `dir` does not exist).
Result<std::vector<DirEntry>> sorted_entries(const std::filesystem::path& dir);

// The content of a regular file (following symbolic links); anything else fails, so that a
// directory or a FIFO is skipped rather than read.
Result<std::string> read_regular(const std::filesystem::path& path);

// One read(2) of up to `size` bytes into `into`, again when a signal interrupted it: the
// bytes read, 0 at the end of the file. Error: "read <path>: <reason>".
Result<std::size_t> read_some(int fd, char* into, std::size_t size,
                              const std::filesystem::path& path);

// Go's os.PathError text for an errno: "no such file or directory", "permission denied", ...
std::string errno_text(int err);

} // namespace opm::util
