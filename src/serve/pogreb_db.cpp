#include "serve/pogreb_db.hpp"

#include "registry/gzip.hpp"
#include "serve/cache_file.hpp"
#include "util/fs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <compare>
#include <cstring>
#include <set>
#include <string_view>
#include <sys/stat.h>
#include <tuple>
#include <vector>

namespace opm::serve {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t k_header_size = 512;
constexpr std::string_view k_signature{"pogreb\x0e\xfd", 8};
constexpr std::size_t k_bucket_size = 512;
constexpr std::size_t k_slots_per_bucket = 31;
constexpr std::size_t k_slot_size = 16;
constexpr std::size_t k_record_head = 6; // key size, value size
constexpr std::size_t k_record_crc = 4;
constexpr std::uint32_t k_delete_bit = 1U << 31;
constexpr std::uint64_t k_max_value = 512U << 20;   // pogreb's MaxValueLength
constexpr std::uint64_t k_max_file = 0xffffffffULL; // record offsets are 32-bit
constexpr unsigned k_max_segments = 32767;          // pogreb's maxSegments (MaxInt16)
constexpr std::string_view k_segment_ext = ".psg";
constexpr std::string_view k_lock_file = "lock";
constexpr std::string_view k_main_index = "main.pix";
constexpr std::string_view k_overflow_index = "overflow.pix";

std::uint16_t le16(const char* p) {
  std::uint16_t v = 0;
  std::memcpy(&v, p, sizeof v);
  return v;
}
std::uint32_t le32(const char* p) {
  std::uint32_t v = 0;
  std::memcpy(&v, p, sizeof v);
  return v;
}
std::uint64_t le64(const char* p) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, sizeof v);
  return v;
}

Error damaged(const fs::path& path, std::string_view what) {
  return {Errc::invalid, fmt::format("{}: {}", path.string(), what)};
}

// What an index slot says of a live record.
struct RecordPlace {
  std::uint16_t segment = 0;
  std::uint32_t offset = 0;
  std::uint16_t key_size = 0;
  std::uint32_t value_size = 0;
  auto operator<=>(const RecordPlace&) const = default;
};

struct Replay {
  PogrebRecords records;
  std::map<std::string, RecordPlace, std::less<>> places;
};

struct Segment {
  std::uint16_t id = 0;
  std::uint64_t sequence = 0;
  std::string name;
};

template <typename T> bool parse_number(std::string_view text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

// "<id>-<sequence>.psg", as pogreb names its segments.
Result<Segment> segment_of(const fs::path& dir, const std::string& name) {
  std::string_view stem = std::string_view(name).substr(0, name.size() - k_segment_ext.size());
  Segment seg{.name = name};
  auto dash = stem.find('-');
  unsigned id = 0;
  bool named =
      parse_number(stem.substr(0, dash), id) &&
      (dash == std::string_view::npos || parse_number(stem.substr(dash + 1), seg.sequence));
  if (!named || id >= k_max_segments) {
    return std::unexpected(damaged(dir / name, "not a segment name pogreb writes"));
  }
  seg.id = static_cast<std::uint16_t>(id);
  return seg;
}

Result<void> check_header(const fs::path& path, std::string_view bytes) {
  if (bytes.size() < k_header_size || bytes.substr(0, k_signature.size()) != k_signature) {
    return std::unexpected(damaged(path, "not a pogreb file (no pogreb header)"));
  }
  return {};
}

std::uint32_t checksum(std::string_view bytes) { return registry::crc32(bytes); }

// Replays one segment's records into `replay`. With `recovering`, a damaged or cut-short
// record ends the segment instead of failing.
Result<void> replay_segment(const fs::path& path, const Segment& seg, std::string_view bytes,
                            const PogrebLimits& limits, bool recovering, Replay& replay) {
  OPM_TRY(check_header(path, bytes));
  std::size_t offset = k_header_size;
  while (offset < bytes.size()) {
    auto fail = [&](std::string_view what) -> Result<void> {
      if (recovering) {
        offset = bytes.size();
        return {};
      }
      return std::unexpected(damaged(path, fmt::format("record at offset {}: {}", offset, what)));
    };
    if (bytes.size() - offset < k_record_head) {
      OPM_TRY(fail("cut short"));
      break;
    }
    const std::size_t key_size = le16(bytes.data() + offset);
    const std::uint32_t sizes = le32(bytes.data() + offset + 2);
    const bool deletion = (sizes & k_delete_bit) != 0;
    const std::size_t value_size = sizes & ~k_delete_bit;
    if (value_size > std::min(limits.value, k_max_value)) {
      OPM_TRY(fail(fmt::format("a value of {} bytes is larger than a cache of this catalog can "
                               "hold (at most {})",
                               value_size, std::min(limits.value, k_max_value))));
      break;
    }
    const std::size_t size = k_record_head + key_size + value_size + k_record_crc;
    if (bytes.size() - offset < size) {
      OPM_TRY(fail("cut short"));
      break;
    }
    std::string_view record = bytes.substr(offset, size - k_record_crc);
    if (le32(bytes.data() + offset + size - k_record_crc) != checksum(record)) {
      OPM_TRY(fail("checksum mismatch"));
      break;
    }
    std::string key(record.substr(k_record_head, key_size));
    if (deletion) {
      replay.records.erase(key);
      replay.places.erase(key);
    } else {
      replay.places[key] =
          RecordPlace{seg.id, static_cast<std::uint32_t>(offset),
                      static_cast<std::uint16_t>(key_size), static_cast<std::uint32_t>(value_size)};
      replay.records[std::move(key)] = record.substr(k_record_head + key_size);
    }
    offset += size;
  }
  return {};
}

// One bucket's slots, up to the first empty one, into `slots`; returns the next bucket's
// offset in the overflow file (0: none).
std::uint64_t read_bucket(std::string_view bucket, std::vector<RecordPlace>& slots) {
  for (std::size_t i = 0; i < k_slots_per_bucket; ++i) {
    const char* slot = bucket.data() + i * k_slot_size;
    RecordPlace place{le16(slot + 4), le32(slot + 12), le16(slot + 6), le32(slot + 8)};
    if (place.offset == 0) {
      break;
    }
    slots.push_back(place);
  }
  return le64(bucket.data() + k_slots_per_bucket * k_slot_size);
}

Result<void> check_buckets(const fs::path& path, std::string_view bytes) {
  OPM_TRY(check_header(path, bytes));
  if ((bytes.size() - k_header_size) % k_bucket_size != 0) {
    return std::unexpected(damaged(path, "not a whole number of buckets"));
  }
  return {};
}

// Every slot reachable from the main buckets through their overflow chains.
Result<std::vector<RecordPlace>> index_slots(const fs::path& main_path, std::string_view main,
                                             const fs::path& overflow_path,
                                             std::string_view overflow) {
  OPM_TRY(check_buckets(main_path, main));
  OPM_TRY(check_buckets(overflow_path, overflow));
  const std::size_t overflow_buckets = (overflow.size() - k_header_size) / k_bucket_size;
  std::vector<RecordPlace> slots;
  for (std::size_t at = k_header_size; at < main.size(); at += k_bucket_size) {
    std::uint64_t next = read_bucket(main.substr(at, k_bucket_size), slots);
    for (std::size_t hops = 0; next != 0; ++hops) {
      if (next < k_header_size || (next - k_header_size) % k_bucket_size != 0 ||
          next + k_bucket_size > overflow.size() || hops >= overflow_buckets) {
        return std::unexpected(damaged(
            overflow_path, fmt::format("bucket chain of main bucket {} goes astray at offset {}",
                                       (at - k_header_size) / k_bucket_size, next)));
      }
      next = read_bucket(overflow.substr(next, k_bucket_size), slots);
    }
  }
  return slots;
}

// The index must name exactly the live records the segments hold.
Result<void> check_index(const fs::path& dir, const PogrebLimits& limits, const Replay& replay) {
  std::string main;
  std::string overflow;
  const fs::path main_path = dir / k_main_index;
  const fs::path overflow_path = dir / k_overflow_index;
  OPM_TRY(read_cache_file(main_path, std::min(limits.file, k_max_file), main));
  OPM_TRY(read_cache_file(overflow_path, std::min(limits.file, k_max_file), overflow));
  auto slots = OPM_TRY(index_slots(main_path, main, overflow_path, overflow));
  std::set<RecordPlace> live;
  for (const auto& [key, place] : replay.places) {
    live.insert(place);
  }
  std::set<RecordPlace> indexed(slots.begin(), slots.end());
  if (indexed.size() != slots.size() || indexed != live) {
    return std::unexpected(
        damaged(main_path,
                fmt::format("the index does not match the segments ({} slots for {} live records)",
                            slots.size(), live.size())));
  }
  return {};
}

struct Listing {
  std::vector<Segment> segments;
  bool unclean = false;
};

// The segments, oldest first, and whether the database was left open; every entry must be a
// regular file.
Result<Listing> list_db(const fs::path& dir) {
  Listing out;
  for (const auto& entry : OPM_TRY(util::sorted_entries(dir))) {
    struct stat st {};
    const fs::path path = dir / entry.name;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      return util::fail(Errc::invalid, fmt::format("{} is not a regular file", path.string()));
    }
    if (entry.name == k_lock_file) {
      out.unclean = true;
    } else if (entry.name.ends_with(k_segment_ext)) {
      out.segments.push_back(OPM_TRY(segment_of(dir, entry.name)));
    }
  }
  std::ranges::sort(out.segments, [](const Segment& a, const Segment& b) {
    return std::tie(a.sequence, a.id) < std::tie(b.sequence, b.id);
  });
  std::set<std::uint16_t> ids;
  for (const auto& seg : out.segments) {
    if (!ids.insert(seg.id).second) {
      return std::unexpected(damaged(dir / seg.name, "another segment has the same id"));
    }
  }
  return out;
}

} // namespace

Result<PogrebDb> read_pogreb_db(const fs::path& dir, const PogrebLimits& limits) {
  const Listing listing = OPM_TRY(list_db(dir));
  Replay replay;
  PogrebDb db;
  for (const auto& seg : listing.segments) {
    const fs::path path = dir / seg.name;
    std::string& bytes = db.segments.emplace_back();
    OPM_TRY(read_cache_file(path, std::min(limits.file, k_max_file), bytes));
    OPM_TRY(replay_segment(path, seg, bytes, limits, listing.unclean, replay));
  }
  if (!listing.unclean) {
    OPM_TRY(check_index(dir, limits, replay));
  }
  db.records = std::move(replay.records);
  return db;
}

} // namespace opm::serve
