#include "sqlite/connection.hpp"
#include "support/index_database.hpp"
#include "support/temp_dir.hpp"
#include "util/interrupt.hpp"

#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

using opm::sqlite::Connection;
using opm::sqlite::OpenMode;

namespace {

// What a child process that sends itself SIGTERM while `work` runs wrote to its pipe. The
// child ends by the signal, as an interrupted command does; a child still running after ten
// seconds is killed and reported as "still running".
template <typename Work> std::string interrupted_child(Work work) {
  std::array<int, 2> fds{};
  REQUIRE(::pipe(fds.data()) == 0);
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    std::string said;
    {
      opm::util::InterruptScope scope;
      std::thread signaller([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        ::kill(::getpid(), SIGTERM);
      });
      said = work();
      signaller.join();
      (void)!::write(fds[1], said.data(), said.size());
    }
    ::_exit(0); // reached only if the signal was lost
  }
  ::close(fds[1]);
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ::close(fds[0]);
      return "still running";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::string out;
  std::array<char, 256> buf{};
  for (ssize_t n = 0; (n = ::read(fds[0], buf.data(), buf.size())) > 0;) {
    out.append(buf.data(), static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  CHECK(WIFSIGNALED(status));
  return out;
}

} // namespace

TEST_SUITE("sqlite connection interrupts") {
  TEST_CASE("a statement that would run forever stops with \"interrupted\" on SIGTERM") {
    opm::test::TempDir dir;
    auto said = interrupted_child([&] {
      auto db = Connection::open(dir.path() / "index.db", OpenMode::read_write_create);
      auto endless = db->exec("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
                              "SELECT count(*) FROM n");
      return endless ? std::string("finished") : endless.error().message();
    });
    CHECK(said == "interrupted");
  }

  TEST_CASE("a loop stepping statements one at a time stops with \"interrupted\" on SIGTERM") {
    opm::test::TempDir dir;
    auto said = interrupted_child([&] {
      auto db = Connection::open(dir.path() / "index.db", OpenMode::read_write_create);
      auto stmt = db->prepare("SELECT 1");
      while (true) {
        stmt->reset();
        if (auto row = stmt->step(); !row) {
          return row.error().message();
        }
      }
    });
    CHECK(said == "interrupted");
  }

  TEST_CASE("a transaction interrupted midway is rolled back") {
    opm::test::TempDir dir;
    auto path = dir.path() / "index.db";
    {
      auto db = opm::test::open_database(path);
      REQUIRE(db.exec("CREATE TABLE t (x INTEGER)"));
    }
    auto said = interrupted_child([&] {
      auto db = Connection::open(path, OpenMode::read_write_create);
      auto tx = opm::sqlite::Transaction::begin(*db);
      auto insert = db->prepare("INSERT INTO t VALUES (1)");
      while (true) {
        insert->reset();
        if (auto done = insert->run(); !done) {
          return done.error().message();
        }
      }
    });
    CHECK(said == "interrupted");
    auto db = opm::test::open_database(path, OpenMode::read_only);
    CHECK(opm::test::column_of(db, "SELECT count(*) FROM t") == std::vector<std::string>{"0"});
  }
}
