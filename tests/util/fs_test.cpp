#include "support/temp_dir.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>

using namespace opm;
namespace fs = std::filesystem;

namespace {

Result<void> write_two_files(const fs::path& staging) {
  fs::create_directory(staging / "pkg");
  OPM_TRY(util::write_file_atomic(staging / "pkg" / "catalog.json", "{}\n"));
  return util::write_file_atomic(staging / "catalog.json", "[]\n");
}

Result<void> fail_after_writing(const fs::path& staging) {
  OPM_TRY(write_two_files(staging));
  return util::fail(Errc::io, "disk full");
}

std::vector<std::string> names_in(const fs::path& dir) {
  auto entries = util::sorted_entries(dir);
  REQUIRE(entries.has_value());
  std::vector<std::string> names;
  for (const auto& entry : *entries) {
    names.push_back(entry.name);
  }
  return names;
}

mode_t mode_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

} // namespace

TEST_SUITE("fs") {
  TEST_CASE("a directory built atomically appears whole, with the parents it needs") {
    test::TempDir tmp;
    auto out = tmp.path() / "out" / "a" / "b";
    REQUIRE(util::build_dir_atomic(out, write_two_files).has_value());
    CHECK(util::read_file(out / "pkg" / "catalog.json").value() == "{}\n");
    CHECK(util::read_file(out / "catalog.json").value() == "[]\n");
    CHECK(names_in(out.parent_path()) == std::vector<std::string>{"b"});
    mode_t mask = ::umask(0);
    ::umask(mask);
    CHECK(mode_of(out) == (0777 & ~mask));
  }

  TEST_CASE("an empty directory built atomically is filled from inside, so its parent need not "
            "be writable, and keeps its mode") {
    test::TempDir tmp;
    auto out = tmp.path() / "out";
    fs::create_directory(out);
    ::chmod(out.c_str(), 0750);
    fs::path staged_in;
    REQUIRE(util::build_dir_atomic(out / "", [&](const fs::path& staging) {
              staged_in = staging.parent_path();
              return write_two_files(staging);
            }).has_value());
    CHECK(staged_in == out);
    CHECK(names_in(out) == std::vector<std::string>{"catalog.json", "pkg"});
    CHECK(names_in(tmp.path()) == std::vector<std::string>{"out"});
    CHECK(mode_of(out) == 0750);
  }

  TEST_CASE("a failed build leaves a missing directory missing, and no parent made for it") {
    test::TempDir tmp;
    auto built = util::build_dir_atomic(tmp.path() / "out" / "a" / "b", fail_after_writing);
    REQUIRE_FALSE(built.has_value());
    CHECK(built.error().message() == "disk full");
    CHECK(names_in(tmp.path()).empty());
  }

  TEST_CASE("a failed build leaves an empty directory empty") {
    test::TempDir tmp;
    fs::create_directory(tmp.path() / "out");
    REQUIRE_FALSE(util::build_dir_atomic(tmp.path() / "out", fail_after_writing).has_value());
    CHECK(names_in(tmp.path()) == std::vector<std::string>{"out"});
    CHECK(names_in(tmp.path() / "out").empty());
  }

  TEST_CASE("an entry that appeared in the directory meanwhile is not replaced, and the others "
            "are taken back") {
    test::TempDir tmp;
    auto out = tmp.path() / "out";
    fs::create_directory(out);
    auto built = util::build_dir_atomic(out, [&](const fs::path& staging) -> Result<void> {
      OPM_TRY(write_two_files(staging));
      return util::write_file_atomic(out / "pkg", "theirs");
    });
    REQUIRE_FALSE(built.has_value());
    CHECK(built.error().message() == "rename " + (out / "pkg").string() + ": file exists");
    CHECK(names_in(out) == std::vector<std::string>{"pkg"});
    CHECK(util::read_file(out / "pkg").value() == "theirs");
    CHECK(names_in(tmp.path()) == std::vector<std::string>{"out"});
  }
}
