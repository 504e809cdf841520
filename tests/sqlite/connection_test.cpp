#include "sqlite/connection.hpp"
#include "sqlite/export.hpp"
#include "support/crashed_database.hpp"
#include "support/index_database.hpp"
#include "support/temp_dir.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>

using opm::sqlite::OpenMode;
namespace fs = std::filesystem;

namespace {

const fs::path k_kiwi = opm::test::data_database_path("kiwi.db");

// The file's content, "" when it cannot be read.
std::string bytes(const fs::path& file) { return opm::util::read_file(file).value_or(""); }

} // namespace

TEST_SUITE("sqlite connection") {
  TEST_CASE("a database with a hot journal is read rolled back, and its files are not written") {
    opm::test::TempDir dir;
    auto db_path = dir.path() / "index.db";
    opm::test::make_hot_journal_database(k_kiwi, db_path,
                                         "UPDATE operatorbundle SET bundle = bundle || bundle");
    auto file = bytes(db_path);
    auto journal = bytes(db_path.string() + "-journal");
    REQUIRE(file != bytes(k_kiwi));
    {
      auto db = opm::test::open_database(db_path, OpenMode::read_only);
      auto stmt = db.prepare("SELECT sum(length(bundle)) FROM operatorbundle");
      REQUIRE(stmt);
      auto row = stmt->step();
      REQUIRE(row);
      auto original = opm::test::open_database(k_kiwi, OpenMode::read_only);
      auto expected = original.prepare("SELECT sum(length(bundle)) FROM operatorbundle");
      REQUIRE(expected);
      REQUIRE(expected->step());
      CHECK(stmt->integer(0) == expected->integer(0));
    }
    auto rendered = opm::sqlite::read_file(db_path);
    REQUIRE(rendered);
    auto original = opm::sqlite::read_file(k_kiwi);
    REQUIRE(original);
    CHECK(rendered->bundles.size() == original->bundles.size());
    CHECK(bytes(db_path) == file);
    CHECK(bytes(db_path.string() + "-journal") == journal);
  }
}
