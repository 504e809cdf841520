#include "registry/gzip.hpp"

#include <zlib.h>

#include <memory>

namespace opm::registry {

namespace {

struct DeflateEnd {
  void operator()(z_stream* zs) const noexcept { deflateEnd(zs); }
};

} // namespace

Result<std::string> gzip_bytes(std::string_view bytes) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return util::fail(Errc::internal, "gzip: cannot start a stream");
  }
  std::unique_ptr<z_stream, DeflateEnd> owner(&zs);
  gz_header header{};
  header.os = 255;
  deflateSetHeader(&zs, &header);
  std::string out(deflateBound(&zs, static_cast<uLong>(bytes.size())) + 32, '\0');
  // zlib's input pointer is not const, but deflate only reads through it.
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
    return util::fail(Errc::internal, "gzip: the stream did not end");
  }
  out.resize(zs.total_out);
  return out;
}

std::uint32_t crc32(std::string_view bytes) {
  return static_cast<std::uint32_t>(
      ::crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

} // namespace opm::registry
