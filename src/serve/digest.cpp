#include "serve/digest.hpp"

#include "util/fs.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace opm::serve {

namespace {

constexpr std::size_t k_block = 512;
constexpr std::size_t k_name_size = 100;
constexpr std::size_t k_prefix_size = 155;

using Block = std::array<char, k_block>;

// Field offsets of a ustar header.
struct Field {
  std::size_t offset;
  std::size_t size;
};
constexpr Field k_name{0, 100}, k_mode{100, 8}, k_uid{108, 8}, k_gid{116, 8}, k_size{124, 12},
    k_mtime{136, 12}, k_chksum{148, 8}, k_magic{257, 6}, k_version{263, 2}, k_devmajor{329, 8},
    k_devminor{337, 8}, k_prefix{345, 155};
constexpr std::size_t k_typeflag = 156;

// archive/tar's formatString: copy, NUL-terminate when there is room.
void put_string(Block& b, Field f, std::string_view s) {
  std::copy_n(s.begin(), std::min(s.size(), f.size), b.begin() + f.offset);
  if (s.size() < f.size) {
    b[f.offset + s.size()] = '\0';
  }
  // A truncated name must not end in '/', or readers would take it for a directory.
  if (s.size() > f.size && b[f.offset + f.size - 1] == '/') {
    std::string_view kept = s.substr(0, f.size - 1);
    while (!kept.empty() && kept.back() == '/') {
      kept.remove_suffix(1);
    }
    b[f.offset + kept.size()] = '\0';
  }
}

// archive/tar's formatOctal: zero-padded octal leaving room for a NUL.
void put_octal(Block& b, Field f, std::uint64_t x) {
  std::string s = fmt::format("{:o}", x);
  if (s.size() + 1 < f.size) {
    s.insert(0, f.size - s.size() - 1, '0');
  }
  put_string(b, f, s);
}

void set_ustar_format(Block& b) {
  std::memcpy(b.data() + k_magic.offset, "ustar\0", 6);
  std::memcpy(b.data() + k_version.offset, "00", 2);
  unsigned sum = 0;
  for (std::size_t i = 0; i < k_block; ++i) {
    bool in_chksum = i >= k_chksum.offset && i < k_chksum.offset + k_chksum.size;
    sum += in_chksum ? ' ' : static_cast<unsigned char>(b[i]);
  }
  put_octal(b, {k_chksum.offset, 7}, sum);
  b[k_chksum.offset + 7] = ' ';
}

bool is_ascii(std::string_view s) {
  return std::ranges::all_of(s, [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

std::string to_ascii(std::string_view s) {
  std::string out;
  std::ranges::copy_if(s, std::back_inserter(out),
                       [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return out;
}

// archive/tar's splitUSTARPath: a long ASCII name split at a '/' into prefix and name.
bool split_ustar_path(std::string_view name, std::string_view& prefix, std::string_view& rest) {
  std::size_t length = name.size();
  if (length <= k_name_size || !is_ascii(name)) {
    return false;
  }
  if (length > k_prefix_size + 1) {
    length = k_prefix_size + 1;
  } else if (name[length - 1] == '/') {
    --length;
  }
  auto i = name.substr(0, length).rfind('/');
  if (i == std::string_view::npos || i == 0) {
    return false;
  }
  std::size_t nlen = name.size() - i - 1;
  if (nlen > k_name_size || nlen == 0 || i > k_prefix_size) {
    return false;
  }
  prefix = name.substr(0, i);
  rest = name.substr(i + 1);
  return true;
}

struct Entry {
  std::string name;
  char typeflag;
  std::uint64_t mode;
  std::uint64_t size;
};

Block v7_header(const Entry& e, std::string_view name, bool ascii_only) {
  Block b{};
  b[k_typeflag] = e.typeflag;
  put_string(b, k_name, ascii_only ? to_ascii(name) : std::string(name));
  put_octal(b, k_mode, e.mode);
  put_octal(b, k_uid, 0);
  put_octal(b, k_gid, 0);
  put_octal(b, k_size, e.size);
  put_octal(b, k_mtime, 0);
  put_octal(b, k_devmajor, 0);
  put_octal(b, k_devminor, 0);
  return b;
}

// "%d path=<name>\n" where %d counts the whole record, itself included.
std::string pax_path_record(std::string_view name) {
  std::size_t size = name.size() + std::string_view("path").size() + 3;
  size += std::to_string(size).size();
  std::string record = fmt::format("{} path={}\n", size, name);
  if (record.size() != size) {
    record = fmt::format("{} path={}\n", record.size(), name);
  }
  return record;
}

class TarHasher {
public:
  explicit TarHasher(Fnv64a& hash) : m_hash(hash) {}

  void header(const Entry& e) {
    std::string_view prefix;
    std::string_view rest;
    bool fits = e.name.size() <= k_name_size && is_ascii(e.name);
    if (fits || split_ustar_path(e.name, prefix, rest)) {
      Block b = v7_header(e, fits ? std::string_view(e.name) : rest, false);
      put_string(b, k_prefix, prefix);
      write_block(b);
      return;
    }
    pax_header(e);
  }

  void data(std::string_view bytes) {
    m_hash.update(bytes);
    pad(bytes.size());
  }

  // A regular file's content, streamed in large reads through one reused buffer.
  Result<void> file_data(const std::filesystem::path& path) {
    util::Fd f(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (f.fd < 0) {
      return util::fail(Errc::io,
                        fmt::format("open {}: {}", path.string(), util::errno_text(errno)));
    }
    m_buffer.resize(k_read_size);
    std::size_t total = 0;
    for (;;) {
      std::size_t n = OPM_TRY(util::read_some(f.fd, m_buffer.data(), m_buffer.size(), path));
      if (n == 0) {
        break;
      }
      m_hash.update({m_buffer.data(), n});
      total += n;
    }
    pad(total);
    return {};
  }

  // Two zero blocks end the archive.
  void close() {
    static const Block zero{};
    m_hash.update({zero.data(), zero.size()});
    m_hash.update({zero.data(), zero.size()});
  }

private:
  void pax_header(const Entry& e) {
    std::string record = pax_path_record(e.name);
    auto slash = e.name.rfind('/');
    std::string dir = slash == std::string::npos ? "" : e.name.substr(0, slash + 1);
    std::string file = slash == std::string::npos ? e.name : e.name.substr(slash + 1);
    std::string pax_name = to_ascii(dir + "PaxHeaders.0/" + file);
    if (pax_name.size() > k_name_size) {
      pax_name.resize(k_name_size);
    }
    while (!pax_name.empty() && pax_name.back() == '/') {
      pax_name.pop_back();
    }
    Block pax{};
    pax[k_typeflag] = 'x';
    put_string(pax, k_name, pax_name);
    put_octal(pax, k_mode, 0);
    put_octal(pax, k_uid, 0);
    put_octal(pax, k_gid, 0);
    put_octal(pax, k_size, record.size());
    put_octal(pax, k_mtime, 0);
    write_block(pax);
    data(record);
    write_block(v7_header(e, e.name, true));
  }

  void write_block(Block b) {
    set_ustar_format(b);
    m_hash.update({b.data(), b.size()});
  }

  void pad(std::size_t size) {
    static const Block zero{};
    if (std::size_t rem = size % k_block; rem != 0) {
      m_hash.update({zero.data(), k_block - rem});
    }
  }

  static constexpr std::size_t k_read_size = 1 << 20;
  Fnv64a& m_hash;
  std::vector<char> m_buffer;
};

std::uint64_t tar_mode(mode_t mode) {
  std::uint64_t out = mode & 0777;
  if (mode & S_ISUID) {
    out |= 04000;
  }
  if (mode & S_ISGID) {
    out |= 02000;
  }
  if (mode & S_ISVTX) {
    out |= 01000;
  }
  return out;
}

Result<void> walk(const std::filesystem::path& path, const std::string& name, const struct stat& st,
                  TarHasher& tar) {
  bool dir = S_ISDIR(st.st_mode);
  bool regular = S_ISREG(st.st_mode);
  tar.header({name,
              dir       ? '5'
              : regular ? '0'
                        : '6',
              tar_mode(st.st_mode), regular ? static_cast<std::uint64_t>(st.st_size) : 0});
  if (regular) {
    return tar.file_data(path);
  }
  if (!dir) {
    return {};
  }
  for (const auto& child : OPM_TRY(util::sorted_entries(path))) {
    std::filesystem::path child_path = path / child.name;
    struct stat child_st {};
    if (::lstat(child_path.c_str(), &child_st) != 0 || S_ISLNK(child_st.st_mode)) {
      continue;
    }
    OPM_TRY(walk(child_path, name == "." ? child.name : name + "/" + child.name, child_st, tar));
  }
  return {};
}

} // namespace

void Fnv64a::update(std::string_view bytes) {
  for (unsigned char c : bytes) {
    m_hash ^= c;
    m_hash *= 0x100000001b3ULL;
  }
}

Result<void> hash_tree_as_tar(const std::filesystem::path& root, Fnv64a& hash) {
  struct stat st {};
  if (::stat(root.c_str(), &st) != 0) {
    return util::fail(errno == ENOENT ? Errc::not_found : Errc::io,
                      fmt::format("stat {}: {}", root.string(), util::errno_text(errno)));
  }
  TarHasher tar(hash);
  OPM_TRY(walk(root, ".", st, tar));
  tar.close();
  return {};
}

} // namespace opm::serve
