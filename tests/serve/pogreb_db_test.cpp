#include "serve/pogreb_db.hpp"
#include "support/temp_dir.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

#include <fcntl.h>
#include <unistd.h>

#include <sys/stat.h>

using namespace opm;
namespace fs = std::filesystem;

namespace {

constexpr serve::PogrebLimits k_limits{.file = 1 << 20, .value = 1 << 16};

void put_le(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) {
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xffU));
  }
}

// A pogreb file's 512-byte header: the signature and format version 2.
std::string header() {
  std::string out("pogreb\x0e\xfd", 8);
  put_le(out, 2, 4);
  out.resize(512, '\0');
  return out;
}

// One segment record; a deletion has its value size's top bit set.
std::string record(std::string_view key, std::string_view value, bool deletion = false) {
  std::string out;
  put_le(out, key.size(), 2);
  put_le(out, value.size() | (deletion ? 1U << 31 : 0U), 4);
  out += key;
  out += value;
  put_le(out, ::crc32_z(0, reinterpret_cast<const Bytef*>(out.data()), out.size()), 4);
  return out;
}

struct Slot {
  std::uint16_t segment = 0;
  std::uint32_t offset = 0;
  std::uint16_t key_size = 0;
  std::uint32_t value_size = 0;
};

// One 512-byte bucket holding `slots` (the hash is not checked: left 0) and the offset of the
// next bucket in the overflow file.
std::string bucket(const std::vector<Slot>& slots, std::uint64_t next = 0) {
  std::string out;
  for (const auto& slot : slots) {
    put_le(out, 0, 4);
    put_le(out, slot.segment, 2);
    put_le(out, slot.key_size, 2);
    put_le(out, slot.value_size, 4);
    put_le(out, slot.offset, 4);
  }
  out.resize(31 * 16, '\0');
  put_le(out, next, 8);
  out.resize(512, '\0');
  return out;
}

// A closed database: the segment files given, and an index of one main bucket holding `slots`.
void write_db(const test::TempDir& dir, const std::map<std::string, std::string>& segments,
              const std::vector<Slot>& slots, const std::string& overflow = header()) {
  for (const auto& [name, records] : segments) {
    dir.write(name, header() + records);
  }
  dir.write("main.pix", header() + bucket(slots));
  dir.write("overflow.pix", overflow);
  dir.write("db.pmt", "gob");
  dir.write("index.pmt", "gob");
}

std::string read_error(const fs::path& dir) {
  auto read = serve::read_pogreb_db(dir, k_limits);
  REQUIRE_FALSE(read.has_value());
  return read.error().message();
}

} // namespace

TEST_CASE("pogreb: the fixture written by pogreb's library reads as latest's keys") {
  const fs::path db = fs::path(OPM_TEST_DATA_DIR) / "../serve/fixtures/pogreb/cache/pogreb.v1/db";
  auto read = serve::read_pogreb_db(db, k_limits);
  REQUIRE(read.has_value());
  std::vector<std::string> keys;
  for (const auto& [key, value] : read->records) {
    keys.push_back(key);
  }
  CHECK(keys == std::vector<std::string>{
                    "bundles/etcd/fast/etcd.v0.9.2", "bundles/etcd/stable/etcd.v0.9.0",
                    "bundles/etcd/stable/etcd.v0.9.2", "bundles/prometheus/beta/prometheus.v0.1.0",
                    "metas/example.notes/", "metas/example.notes/etcd", "packages.json"});
  CHECK(read->records.at("packages.json").starts_with(R"({"etcd":{"name":"etcd",)"));
}

TEST_CASE("pogreb: replaying the segments keeps the last put of each key and drops deletions") {
  test::TempDir dir;
  std::string records = record("a", "1");
  records += record("b", "2");
  const auto last_a = static_cast<std::uint32_t>(512 + records.size());
  records += record("a", "33");
  records += record("b", "", true);
  write_db(dir, {{"00000-1.psg", records}}, {{0, last_a, 1, 2}});
  auto read = serve::read_pogreb_db(dir.path(), k_limits);
  REQUIRE(read.has_value());
  CHECK(read->records == serve::PogrebRecords{{"a", "33"}});
}

TEST_CASE("pogreb: segments are replayed by sequence, not by id") {
  test::TempDir dir;
  write_db(dir, {{"00000-2.psg", record("k", "new")}, {"00001-1.psg", record("k", "old")}},
           {{0, 512, 1, 3}});
  auto read = serve::read_pogreb_db(dir.path(), k_limits);
  REQUIRE(read.has_value());
  CHECK(read->records.at("k") == "new");
}

TEST_CASE("pogreb: a record whose checksum does not match is named by file and offset") {
  test::TempDir dir;
  std::string records = record("a", "1") + record("b", "2");
  records[records.size() - 5] = 'X'; // the value of b
  write_db(dir, {{"00000-1.psg", records}}, {});
  CHECK(read_error(dir.path()) ==
        (dir.path() / "00000-1.psg").string() + ": record at offset 524: checksum mismatch");
}

TEST_CASE("pogreb: a segment cut inside a record or without its header is refused") {
  test::TempDir dir;
  std::string cut = record("key", "value");
  cut.resize(cut.size() - 1);
  write_db(dir, {{"00000-1.psg", cut}}, {});
  CHECK(read_error(dir.path()) ==
        (dir.path() / "00000-1.psg").string() + ": record at offset 512: cut short");

  dir.write("00000-1.psg", "pogreb");
  CHECK(read_error(dir.path()) ==
        (dir.path() / "00000-1.psg").string() + ": not a pogreb file (no pogreb header)");
}

TEST_CASE("pogreb: a value larger than the cache can hold is refused before it is read") {
  test::TempDir dir;
  std::string huge;
  put_le(huge, 0, 2);
  put_le(huge, 0x7fffffff, 4);
  write_db(dir, {{"00000-1.psg", huge}}, {});
  CHECK(read_error(dir.path()) ==
        (dir.path() / "00000-1.psg").string() +
            ": record at offset 512: a value of 2147483647 bytes is larger than a cache of this "
            "catalog can hold (at most 65536)");
}

TEST_CASE("pogreb: an index that names an overwritten record, or misses one, is refused") {
  test::TempDir dir;
  write_db(dir, {{"00000-1.psg", record("a", "1") + record("a", "2")}}, {{0, 512, 1, 1}});
  const std::string main = (dir.path() / "main.pix").string();
  CHECK(read_error(dir.path()) ==
        main + ": the index does not match the segments (1 slots for 1 live records)");

  write_db(dir, {{"00000-1.psg", record("a", "1")}}, {});
  CHECK(read_error(dir.path()) ==
        main + ": the index does not match the segments (0 slots for 1 live records)");
}

TEST_CASE("pogreb: an overflow chain that loops or leaves its file is refused") {
  test::TempDir dir;
  write_db(dir, {{"00000-1.psg", record("a", "1")}}, {});
  dir.write("main.pix", header() + bucket({{0, 512, 1, 1}}, 512));
  dir.write("overflow.pix", header() + bucket({}, 512));
  const std::string overflow = (dir.path() / "overflow.pix").string();
  CHECK(read_error(dir.path()) ==
        overflow + ": bucket chain of main bucket 0 goes astray at offset 512");

  dir.write("overflow.pix", header() + bucket({}, 4096));
  CHECK(read_error(dir.path()) ==
        overflow + ": bucket chain of main bucket 0 goes astray at offset 4096");
}

TEST_CASE("pogreb: a database left open is recovered as pogreb does: a torn tail ends it") {
  test::TempDir dir;
  std::string records = record("a", "1") + record("b", "2");
  records.resize(records.size() - 2);
  write_db(dir, {{"00000-1.psg", records}}, {});
  dir.write("lock", "");
  auto read = serve::read_pogreb_db(dir.path(), k_limits);
  REQUIRE(read.has_value());
  CHECK(read->records == serve::PogrebRecords{{"a", "1"}});
}

TEST_CASE("pogreb: links, FIFOs and strange segment names are refused, nothing is opened") {
  test::TempDir dir;
  write_db(dir, {}, {});
  const fs::path segment = dir.path() / "00000-1.psg";
  REQUIRE(::symlink("/dev/zero", segment.c_str()) == 0);
  CHECK(read_error(dir.path()) == segment.string() + " is not a regular file");

  fs::remove(segment);
  REQUIRE(::mkfifo(segment.c_str(), 0600) == 0);
  CHECK(read_error(dir.path()) == segment.string() + " is not a regular file");

  fs::remove(segment);
  dir.write("7x-1.psg", header());
  CHECK(read_error(dir.path()) ==
        (dir.path() / "7x-1.psg").string() + ": not a segment name pogreb writes");

  fs::remove(dir.path() / "7x-1.psg");
  dir.write("00003-1.psg", header());
  dir.write("00003-2.psg", header());
  CHECK(read_error(dir.path()) ==
        (dir.path() / "00003-2.psg").string() + ": another segment has the same id");
}

TEST_CASE("pogreb: a file larger than the limit is refused before it is read") {
  test::TempDir dir;
  write_db(dir, {{"00000-1.psg", std::string(2 << 20, '\0')}}, {});
  CHECK(read_error(dir.path()) ==
        (dir.path() / "00000-1.psg").string() +
            " is larger than a cache of this catalog can hold (2097664 bytes, at most 1048576)");
}

// Changes the byte at `at` of `path` in place (xor 0x41): once to damage it, again to repair it.
void flip(const fs::path& path, std::size_t at) {
  util::Fd fd(::open(path.c_str(), O_RDWR | O_CLOEXEC));
  REQUIRE(fd.valid());
  char byte = 0;
  REQUIRE(::pread(fd.fd, &byte, 1, static_cast<off_t>(at)) == 1);
  byte = static_cast<char>(byte ^ 0x41);
  REQUIRE(::pwrite(fd.fd, &byte, 1, static_cast<off_t>(at)) == 1);
}

TEST_CASE("pogreb: every changed byte of a real database's records is refused, never a crash") {
  const fs::path fixture =
      fs::path(OPM_TEST_DATA_DIR) / "../serve/fixtures/pogreb/cache/pogreb.v1/db";
  test::TempDir dir;
  for (const auto& entry : fs::directory_iterator(fixture)) {
    fs::copy_file(entry.path(), dir.path() / entry.path().filename());
  }
  for (const std::string name : {"00000-1.psg", "main.pix", "overflow.pix"}) {
    const fs::path path = dir.path() / name;
    for (std::size_t at = 0; at < fs::file_size(path); ++at) {
      flip(path, at);
      auto read = serve::read_pogreb_db(dir.path(), k_limits);
      if (name == "00000-1.psg" && at >= 512) {
        CHECK_FALSE(read.has_value());
      }
      flip(path, at);
    }
  }
  CHECK(serve::read_pogreb_db(dir.path(), k_limits).has_value());
}
