#pragma once

#include "util/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace opm::registry {

// `bytes` as one gzip stream at zlib's default level, without a name or time, marked as
// made on an unknown system, as Go's gzip.Writer marks it.
Result<std::string> gzip_bytes(std::string_view bytes);

// The CRC-32 (IEEE, as gzip and Go's hash/crc32 compute it) of `bytes`.
std::uint32_t crc32(std::string_view bytes);

} // namespace opm::registry
