#include "registry/layer_writer.hpp"

#include "registry/digest.hpp"
#include "util/c_free.hpp"
#include "util/fs.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <system_error>

namespace opm::registry {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t k_block = 512;
constexpr std::size_t k_name_field = 100;

// Streams bytes through gzip (or as they are) into a file, hashing both sides.
class GzipFile {
public:
  explicit GzipFile(const fs::path& path, bool compress = true)
      : m_out(path, std::ios::binary | std::ios::trunc), m_compress(compress) {
    if (!compress) {
      m_ok = m_out.is_open();
      return;
    }
    m_zs.zalloc = Z_NULL;
    m_zs.zfree = Z_NULL;
    m_zs.opaque = Z_NULL;
    // 15 window bits + 16: a gzip wrapper with no name and a zero time.
    m_ok = m_out.is_open() &&
           deflateInit2(&m_zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    m_init = m_ok;
  }
  ~GzipFile() {
    if (m_init) {
      deflateEnd(&m_zs);
    }
  }
  GzipFile(const GzipFile&) = delete;
  GzipFile& operator=(const GzipFile&) = delete;

  [[nodiscard]] bool ok() const { return m_ok; }

  void write(std::string_view bytes) {
    m_plain.update(bytes);
    if (!m_compress) {
      m_out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      m_size += bytes.size();
      return;
    }
    pump(bytes, Z_NO_FLUSH);
  }
  // Ends the stream; the file holds it all when this returns true.
  bool finish() {
    if (m_compress) {
      pump({}, Z_FINISH);
    }
    m_out.flush();
    return m_ok && m_out.good();
  }
  std::string plain_digest() { return m_plain.finish(); }
  std::string gzip_digest() { return m_gzip.finish(); }
  [[nodiscard]] std::uint64_t gzip_size() const { return m_size; }

private:
  void pump(std::string_view in, int flush) {
    if (!m_ok) {
      return;
    }
    // zlib's input pointer is not const, but deflate only reads through it.
    m_zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    m_zs.avail_in = static_cast<uInt>(in.size());
    int rc = Z_OK;
    do {
      m_zs.next_out = reinterpret_cast<Bytef*>(m_buffer.data());
      m_zs.avail_out = static_cast<uInt>(m_buffer.size());
      rc = deflate(&m_zs, flush);
      std::size_t n = m_buffer.size() - m_zs.avail_out;
      std::string_view produced(m_buffer.data(), n);
      m_gzip.update(produced);
      m_out.write(produced.data(), static_cast<std::streamsize>(n));
      m_size += n;
    } while (m_zs.avail_out == 0 || (flush == Z_FINISH && rc == Z_OK));
    m_ok = m_ok && rc != Z_STREAM_ERROR && m_out.good();
  }

  std::ofstream m_out;
  bool m_compress = true;
  z_stream m_zs{};
  bool m_ok = false;
  bool m_init = false;
  std::array<char, 1 << 16> m_buffer{};
  Hasher m_plain;
  Hasher m_gzip;
  std::uint64_t m_size = 0;
};

void put_octal(char* field, std::size_t width, std::uint64_t value) {
  // width-1 digits then NUL, as Go's archive/tar writes them.
  auto text = fmt::format("{:0{}o}", value, width - 1);
  std::memcpy(field, text.data(), std::min(text.size(), width - 1));
}

void put_text(char* field, std::size_t width, std::string_view text) {
  if (text.empty()) {
    return; // memcpy may not be handed the null data of an empty view
  }
  std::memcpy(field, text.data(), std::min(text.size(), width));
}

struct Owner {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
};

std::string header(std::string_view name, char type, std::uint32_t mode, std::uint64_t size,
                   std::int64_t mtime, std::string_view link, Owner owner = {}) {
  std::string h(k_block, '\0');
  put_text(h.data(), k_name_field, name);
  put_octal(h.data() + 100, 8, mode);
  put_octal(h.data() + 108, 8, owner.uid);
  put_octal(h.data() + 116, 8, owner.gid);
  put_octal(h.data() + 124, 12, size);
  put_octal(h.data() + 136, 12, static_cast<std::uint64_t>(std::max<std::int64_t>(mtime, 0)));
  h[156] = type;
  put_text(h.data() + 157, 100, link);
  put_text(h.data() + 257, 6, "ustar");
  put_text(h.data() + 263, 2, "00");
  std::memset(h.data() + 148, ' ', 8);
  unsigned sum = 0;
  for (char c : h) {
    sum += static_cast<unsigned char>(c);
  }
  auto text = fmt::format("{:06o}", sum);
  std::memcpy(h.data() + 148, text.data(), 6);
  h[154] = '\0';
  h[155] = ' ';
  return h;
}

std::string padding(std::uint64_t size) {
  return std::string((k_block - size % k_block) % k_block, '\0');
}

// A PAX record "LEN key=value\n", LEN counting itself.
std::string pax_record(std::string_view key, std::string_view value) {
  std::size_t body = key.size() + value.size() + 3; // ' ', '=', '\n'
  std::size_t len = body + 1;
  while (std::to_string(len).size() != len - body) {
    ++len;
  }
  return fmt::format("{} {}={}\n", len, key, value);
}

char type_flag(LayerEntry::Type t) {
  switch (t) {
  case LayerEntry::Type::directory:
    return '5';
  case LayerEntry::Type::symlink:
    return '2';
  case LayerEntry::Type::file:
    break;
  }
  return '0';
}

Result<void> write_entry(GzipFile& out, const LayerEntry& e, std::int64_t mtime) {
  std::string name = e.type == LayerEntry::Type::directory ? e.name + "/" : e.name;
  std::uint64_t size = 0;
  bool in_memory = e.type == LayerEntry::Type::file && e.source.empty();
  if (in_memory) {
    size = e.data.size();
  } else if (e.type == LayerEntry::Type::file) {
    std::error_code ec;
    size = fs::file_size(e.source, ec);
    if (ec) {
      return util::fail(Errc::io, fmt::format("reading {}: {}", e.source.string(), ec.message()));
    }
  }
  if (name.size() > k_name_field || e.link.size() > k_name_field) {
    std::string records;
    if (name.size() > k_name_field) {
      records += pax_record("path", name);
    }
    if (e.link.size() > k_name_field) {
      records += pax_record("linkpath", e.link);
    }
    std::string pax_name = "PaxHeaders.0/" + fs::path(e.name).filename().string();
    out.write(header(pax_name.substr(0, k_name_field), 'x', 0644, records.size(), mtime, {}));
    out.write(records);
    out.write(padding(records.size()));
  }
  out.write(header(std::string_view(name).substr(0, std::min(name.size(), k_name_field)),
                   type_flag(e.type), e.mode, size, mtime,
                   std::string_view(e.link).substr(0, std::min(e.link.size(), k_name_field)),
                   Owner{e.uid, e.gid}));
  if (e.type != LayerEntry::Type::file) {
    return {};
  }
  if (in_memory) {
    out.write(e.data);
    out.write(padding(size));
    return {};
  }
  std::ifstream in(e.source, std::ios::binary);
  if (!in) {
    return util::fail(Errc::io,
                      fmt::format("opening {}: {}", e.source.string(), util::errno_text(errno)));
  }
  std::string buffer(1 << 16, '\0');
  std::uint64_t copied = 0;
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    auto n = static_cast<std::size_t>(in.gcount());
    out.write(std::string_view(buffer.data(), n));
    copied += n;
  }
  if (copied != size) {
    return util::fail(Errc::io, fmt::format("{} changed while it was read", e.source.string()));
  }
  out.write(padding(size));
  return {};
}

// The entries and the archive's closing blocks into `out`, a file just opened at `file`.
Result<void> write_archive(GzipFile& out, const std::vector<LayerEntry>& entries,
                           std::int64_t mtime, const fs::path& file) {
  if (!out.ok()) {
    return util::fail(Errc::io,
                      fmt::format("creating {}: {}", file.string(), util::errno_text(errno)));
  }
  for (const auto& e : entries) {
    OPM_TRY(write_entry(out, e, mtime));
  }
  out.write(std::string(2 * k_block, '\0'));
  if (!out.finish()) {
    return util::fail(Errc::io, fmt::format("writing {}", file.string()));
  }
  return {};
}

} // namespace

Result<std::vector<LayerEntry>> tree_entries(const fs::path& dir, std::string_view prefix,
                                             std::uint32_t root_mode,
                                             const std::vector<ParentDir>& parents) {
  std::vector<LayerEntry> out;
  for (const auto& p : parents) {
    out.push_back({p.name, LayerEntry::Type::directory, p.mode, {}, {}, {}});
  }
  out.push_back({std::string(prefix), LayerEntry::Type::directory, root_mode, {}, {}, {}});
  std::vector<LayerEntry> below;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const auto& entry = *it;
    // Lexically: fs::relative() would follow a symlink and name the entry after its target.
    std::string rel = entry.path().lexically_relative(dir).generic_string();
    LayerEntry e;
    e.name = std::string(prefix) + "/" + rel;
    auto st = entry.symlink_status(ec);
    if (ec) {
      break;
    }
    e.mode = static_cast<std::uint32_t>(st.permissions()) & 07777;
    if (fs::is_symlink(st)) {
      e.type = LayerEntry::Type::symlink;
      e.mode = 0777;
      e.link = fs::read_symlink(entry.path(), ec).string();
    } else if (fs::is_directory(st)) {
      e.type = LayerEntry::Type::directory;
    } else if (fs::is_regular_file(st)) {
      e.source = entry.path();
    } else {
      return util::fail(Errc::invalid,
                        fmt::format("{}: not a file, directory or symlink", entry.path().string()));
    }
    below.push_back(std::move(e));
  }
  if (ec) {
    return util::fail(Errc::io, fmt::format("reading {}: {}", dir.string(), ec.message()));
  }
  std::sort(below.begin(), below.end(),
            [](const LayerEntry& a, const LayerEntry& b) { return a.name < b.name; });
  out.insert(out.end(), std::make_move_iterator(below.begin()),
             std::make_move_iterator(below.end()));
  return out;
}

Result<WrittenLayer> write_layer(const std::vector<LayerEntry>& entries, std::int64_t mtime,
                                 const fs::path& file, std::string media_type) {
  GzipFile out(file);
  OPM_TRY(write_archive(out, entries, mtime, file));
  WrittenLayer layer;
  layer.diff_id = out.plain_digest();
  layer.descriptor.digest = out.gzip_digest();
  layer.descriptor.size = static_cast<std::int64_t>(out.gzip_size());
  layer.descriptor.media_type = std::move(media_type);
  return layer;
}

Result<void> write_tar(const std::vector<LayerEntry>& entries, std::int64_t mtime,
                       const fs::path& file) {
  GzipFile out(file, false);
  return write_archive(out, entries, mtime, file);
}

} // namespace opm::registry
