#include "support/temp_dir.hpp"
#include "util/process.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <sys/stat.h>

namespace {

using opm::util::find_on_path;
using opm::util::run_process;

opm::util::ProcessSpec shell(std::string script) {
  return {.exe = "/bin/sh", .argv = {"sh", "-c", std::move(script)}};
}

} // namespace

TEST_CASE("a process's output and error streams are collected apart") {
  auto done = run_process(shell("printf out; printf err >&2"));
  REQUIRE(done);
  CHECK(done->out == "out");
  CHECK(done->err == "err");
  CHECK(done->succeeded());
  CHECK(done->exit_code() == 0);
}

TEST_CASE("a process reads the input it is given, however large") {
  std::string input(1 << 20, 'x');
  input += "end";
  auto spec = shell("wc -c");
  spec.input = input;
  auto done = run_process(spec);
  REQUIRE(done);
  CHECK(done->out == std::to_string(input.size()) + "\n");
}

TEST_CASE("a process that ignores its input still finishes") {
  auto spec = shell("exec 0<&-; printf done");
  spec.input = std::string(1 << 20, 'x');
  auto done = run_process(spec);
  REQUIRE(done);
  CHECK(done->out == "done");
}

TEST_CASE("an exit code and a signal read as Go's exec errors") {
  auto failed = run_process(shell("exit 3"));
  REQUIRE(failed);
  CHECK_FALSE(failed->succeeded());
  CHECK(failed->exit_code() == 3);
  CHECK(failed->exit_text() == "exit status 3");
  auto killed = run_process(shell("kill -TERM $$"));
  REQUIRE(killed);
  CHECK(killed->exit_code() == -1);
  CHECK(killed->exit_text() == "signal: Terminated");
}

TEST_CASE("a process past its time limit is killed") {
  auto spec = shell("sleep 30");
  spec.time_limit = std::chrono::milliseconds(200);
  auto started = std::chrono::steady_clock::now();
  auto done = run_process(spec);
  REQUIRE(done);
  CHECK(done->timed_out);
  CHECK_FALSE(done->succeeded());
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
}

TEST_CASE("a process runs in the directory and environment it is given") {
  opm::test::TempDir dir;
  auto spec = shell("pwd; printf '%s' \"$GREETING\"");
  spec.cwd = dir.path();
  spec.env = std::vector<std::string>{"GREETING=hello"};
  auto done = run_process(spec);
  REQUIRE(done);
  CHECK(done->out == std::filesystem::canonical(dir.path()).string() + "\nhello");
}

TEST_CASE("output past the limit is read and dropped") {
  auto spec = shell("head -c 100000 /dev/zero");
  spec.output_limit = 10;
  auto done = run_process(spec);
  REQUIRE(done);
  CHECK(done->out.size() == 10);
  CHECK(done->succeeded());
}

TEST_CASE("a program that does not exist is an error with the system's reason") {
  auto done = run_process({.exe = "/nonexistent/program", .argv = {"program"}});
  REQUIRE_FALSE(done);
  CHECK(done.error().code() == opm::Errc::not_found);
  CHECK(done.error().message() == "no such file or directory");
}

TEST_CASE("a program is found on the path as Go's LookPath finds it") {
  opm::test::TempDir first;
  opm::test::TempDir second;
  auto tool = second.path() / "tool";
  std::ofstream(tool) << "#!/bin/sh\n";
  ::chmod(tool.c_str(), 0755);
  std::ofstream(first.path() / "tool") << "not executable\n";
  auto path = first.path().string() + ":" + second.path().string();
  CHECK(find_on_path("tool", path) == tool.string());
  CHECK(find_on_path("missing", path) == std::nullopt);
  CHECK(find_on_path("./relative/tool", path) == "./relative/tool");
}
