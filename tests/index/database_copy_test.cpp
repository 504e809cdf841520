#include "index/database_copy.hpp"
#include "sqlite/connection.hpp"
#include "support/crashed_database.hpp"
#include "support/index_database.hpp"
#include "support/temp_dir.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <unistd.h>

#include <sys/mount.h>
#include <sys/stat.h>

using opm::index::DatabaseCopy;
using opm::sqlite::OpenMode;
namespace fs = std::filesystem;

namespace {

const fs::path k_kiwi = opm::test::data_database_path("kiwi.db");

// The file's content, "" when it cannot be read.
std::string bytes(const fs::path& file) { return opm::util::read_file(file).value_or(""); }

std::string single(const fs::path& db_path, const std::string& sql) {
  auto db = opm::test::open_database(db_path, OpenMode::read_only);
  auto values = opm::test::column_of(db, sql);
  REQUIRE_FALSE(values.empty());
  return values.front();
}

// Makes a copy of `database`, deletes the package "plum" in it, and commits.
void remove_plum(const fs::path& database) {
  auto copy = DatabaseCopy::make(database);
  REQUIRE(copy);
  {
    auto db = opm::test::open_database(copy->path());
    REQUIRE(db.exec("DELETE FROM package WHERE name = 'plum'"));
  }
  REQUIRE(copy->commit());
}

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {}));
}

// A tmpfs of `size` mounted on `dir` while this lives (mounting needs root: check mounted()).
class SmallDisk {
public:
  SmallDisk(const fs::path& dir, const char* size) : m_dir(dir) {
    fs::create_directory(dir);
    m_mounted = ::mount("tmpfs", dir.c_str(), "tmpfs", 0, size) == 0;
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;
  ~SmallDisk() {
    if (m_mounted) {
      ::umount(m_dir.c_str());
    }
  }
  [[nodiscard]] bool mounted() const { return m_mounted; }

private:
  fs::path m_dir;
  bool m_mounted = false;
};

} // namespace

TEST_SUITE("database copy") {
  TEST_CASE("an update keeps what a WAL holds and leaves no WAL beside the result") {
    opm::test::TempDir dir;
    auto db = dir.path() / "index.db";
    opm::test::make_wal_database(k_kiwi, db, "DELETE FROM package WHERE name = 'kiwi'");
    remove_plum(db);
    CHECK(single(db, "SELECT count(*) FROM package") == "0");
    CHECK(single(db, "PRAGMA journal_mode") == "delete");
    CHECK(single(db, "PRAGMA integrity_check") == "ok");
    CHECK_FALSE(fs::exists(db.string() + "-wal"));
  }

  TEST_CASE("an update rolls back a hot journal first, as opening the file would") {
    opm::test::TempDir dir;
    auto db = dir.path() / "index.db";
    opm::test::make_hot_journal_database(k_kiwi, db,
                                         "UPDATE operatorbundle SET bundle = bundle || bundle");
    REQUIRE(bytes(db) != bytes(k_kiwi)); // the change reached the file
    remove_plum(db);
    CHECK(single(db, "PRAGMA integrity_check") == "ok");
    CHECK(single(db, "SELECT group_concat(name) FROM package") == "kiwi");
    CHECK(single(db, "SELECT sum(length(bundle)) FROM operatorbundle") ==
          single(k_kiwi, "SELECT sum(length(bundle)) FROM operatorbundle"));
    CHECK_FALSE(fs::exists(db.string() + "-journal"));
  }

  TEST_CASE("a database behind a symbolic link is updated where the link points") {
    opm::test::TempDir dir;
    fs::create_directory(dir.path() / "real");
    auto target = dir.path() / "real" / "index.db";
    fs::copy_file(k_kiwi, target);
    auto link = dir.path() / "index.db";
    fs::create_symlink("real/index.db", link);
    remove_plum(link);
    CHECK(fs::is_symlink(link));
    CHECK(fs::read_symlink(link) == "real/index.db");
    CHECK(single(target, "SELECT group_concat(name) FROM package") == "kiwi");
    CHECK(entries(dir.path()) == 2);
    CHECK(entries(dir.path() / "real") == 1);
  }

  TEST_CASE("the updated database keeps its owner, group and mode") {
    opm::test::TempDir dir;
    auto db = dir.path() / "index.db";
    fs::copy_file(k_kiwi, db);
    REQUIRE(::chmod(db.c_str(), 0640) == 0);
    bool owned = ::chown(db.c_str(), 1234, 5678) == 0; // needs root
    struct stat before {};
    REQUIRE(::stat(db.c_str(), &before) == 0);
    remove_plum(db);
    struct stat after {};
    REQUIRE(::stat(db.c_str(), &after) == 0);
    CHECK(after.st_ino != before.st_ino); // replaced, not written over
    CHECK((after.st_mode & 07777) == 0640);
    if (owned) {
      CHECK(after.st_uid == 1234);
      CHECK(after.st_gid == 5678);
    }
  }

  TEST_CASE("copies left by a killed process are removed, those of a running one are kept") {
    opm::test::TempDir dir;
    auto db = dir.path() / "index.db";
    fs::copy_file(k_kiwi, db);
    auto stale = dir.path() / fmt::format(".index.db.opm-{}-AbCdEf", opm::test::ended_pid());
    auto live = dir.path() / fmt::format(".index.db.opm-{}-AbCdEf", ::getppid());
    auto foreign = dir.path() / ".index.db.AbCdEf";
    for (const auto& p : {stale, live, foreign}) {
      std::ofstream(p) << "x";
    }
    auto copy = DatabaseCopy::make(db);
    REQUIRE(copy);
    CHECK(
        copy->path().filename().string().starts_with(fmt::format(".index.db.opm-{}-", ::getpid())));
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(live));
    CHECK(fs::exists(foreign));
  }

  TEST_CASE("a disk that fills up while the copy is changed is reported for the database") {
    opm::test::TempDir dir;
    SmallDisk disk(dir.path() / "small", "size=320k");
    if (!disk.mounted()) {
      MESSAGE("skipped: mounting a tmpfs needs root");
      return;
    }
    auto db = dir.path() / "small" / "index.db";
    fs::copy_file(k_kiwi, db);
    auto copy = DatabaseCopy::make(db);
    REQUIRE(copy);
    auto conn = opm::test::open_database(copy->path());
    auto full = conn.exec("INSERT INTO deprecated VALUES (hex(randomblob(200000)))");
    REQUIRE_FALSE(full);
    CHECK(full.error().message() == "write " + db.string() + ": no space left on device");
  }
}
