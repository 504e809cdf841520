#pragma once

#include "util/error.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

// Reading, never writing, a pogreb v0.10 key-value store (github.com/akrylysov/pogreb), the
// database latest upstream keeps its serve cache in (<cache>/pogreb.v1/db).
//
// Its segment files (<id>-<sequence>.psg) are the data: after a 512-byte header, records of
// [key size: 2 bytes][value size: 31 bits, top bit set for a deletion][key][value][CRC-32],
// little-endian, appended in order, so that replaying the segments from the oldest sequence
// to the newest gives every live key and value (pogreb's own recovery does the same). The
// index files (main.pix, overflow.pix: buckets of 31 slots naming the segment, offset and
// sizes of each live record) are only checked against that replay, so a database whose index
// lost or gained a record is refused. The gob files (*.pmt) are not read: they hold the hash
// seed and counters, which the replay does not need.
namespace opm::serve {

// The most the database may hold: no file larger than `file`, no value larger than `value`.
struct PogrebLimits {
  std::uint64_t file = 0;
  std::uint64_t value = 0;
};

// Keys in byte-wise order, as the digest reads them; each value is a view of the segment bytes
// of its PogrebDb.
using PogrebRecords = std::map<std::string, std::string_view, std::less<>>;

// The database read whole: the live values are not copied out of the segments, so a cache is
// held once. Moving a PogrebDb keeps its views valid (the segments' buffers do not move).
struct PogrebDb {
  std::vector<std::string> segments;
  PogrebRecords records;
};

// Every live record of the database in `dir`. Anything that pogreb would not have written
// fails with one line naming the file: "<file>: record at offset 512: checksum mismatch",
// "<file> is not a regular file", "<file> is larger than a cache of this catalog can hold
// (...)". When the database was not closed (its `lock` file is there), a damaged or cut-short
// record ends its segment and the index is not checked, as pogreb recovers such a database.
Result<PogrebDb> read_pogreb_db(const std::filesystem::path& dir, const PogrebLimits& limits);

} // namespace opm::serve
