#include "support/temp_dir.hpp"
#include "util/fs.hpp"
#include "util/page_buffer.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <string>
#include <sys/stat.h>
#include <thread>

using namespace opm;
namespace fs = std::filesystem;

namespace {

// Bytes that do not repeat within a page, so that a part read to the wrong place shows.
std::string patterned(std::size_t size) {
  std::string out(size, '\0');
  for (std::size_t i = 0; i < size; ++i) {
    out[i] = static_cast<char>('a' + (i * 7 + i / 251) % 26);
  }
  return out;
}

constexpr std::size_t k_step = util::PageBuffer::k_step;

} // namespace

TEST_CASE("a file larger than one step is read whole, into a buffer of whole steps") {
  test::TempDir dir;
  const std::string bytes = patterned(k_step + 12345);
  REQUIRE(util::write_file_atomic(dir.path() / "catalog.yaml", bytes));
  util::PageBuffer buffer;
  auto text = util::read_file_into(dir.path() / "catalog.yaml", buffer);
  REQUIRE(text);
  CHECK(*text == bytes);
  CHECK(buffer.capacity() == 2 * k_step);
}

TEST_CASE("the buffer keeps its memory for the next, smaller file") {
  test::TempDir dir;
  REQUIRE(util::write_file_atomic(dir.path() / "big.yaml", patterned(k_step + 1)));
  REQUIRE(util::write_file_atomic(dir.path() / "small.yaml", "schema: olm.package\n"));
  util::PageBuffer buffer;
  REQUIRE(util::read_file_into(dir.path() / "big.yaml", buffer));
  const char* memory = buffer.data();
  auto small = util::read_file_into(dir.path() / "small.yaml", buffer);
  REQUIRE(small);
  CHECK(*small == "schema: olm.package\n");
  CHECK(small->data() == memory);
  CHECK(buffer.capacity() == 2 * k_step);
}

TEST_CASE("a file one byte short of a step fits one step; a file of a whole step takes two") {
  // One byte more than the file is asked for, so that a file that grew is read on.
  test::TempDir dir;
  REQUIRE(util::write_file_atomic(dir.path() / "a.yaml", patterned(k_step - 1)));
  REQUIRE(util::write_file_atomic(dir.path() / "b.yaml", patterned(k_step)));
  util::PageBuffer first;
  REQUIRE(util::read_file_into(dir.path() / "a.yaml", first));
  CHECK(first.capacity() == k_step);
  util::PageBuffer second;
  auto text = util::read_file_into(dir.path() / "b.yaml", second);
  REQUIRE(text);
  CHECK(text->size() == k_step);
  CHECK(second.capacity() == 2 * k_step);
}

TEST_CASE("a stream of unknown size is read whole, the buffer growing as it fills") {
  test::TempDir dir;
  const fs::path fifo = dir.path() / "stream";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string bytes = patterned(3 * k_step + 777);
  std::thread writer([&] {
    const util::Fd out(::open(fifo.c_str(), O_WRONLY | O_CLOEXEC));
    std::size_t done = 0;
    while (out.valid() && done < bytes.size()) {
      const ssize_t n = ::write(out.fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) {
        break;
      }
      done += static_cast<std::size_t>(n);
    }
  });
  util::PageBuffer buffer;
  auto text = util::read_file_into(fifo, buffer);
  writer.join();
  REQUIRE(text);
  CHECK(text->size() == bytes.size());
  CHECK(*text == bytes);
  CHECK(buffer.capacity() == 4 * k_step);
}

TEST_CASE("a missing file and a directory fail as read_file does") {
  test::TempDir dir;
  util::PageBuffer buffer;
  auto missing = util::read_file_into(dir.path() / "nope.yaml", buffer);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message() ==
        "open " + (dir.path() / "nope.yaml").string() + ": no such file or directory");
  auto directory = util::read_file_into(dir.path(), buffer);
  REQUIRE_FALSE(directory);
  CHECK(directory.error().message() == "read " + dir.path().string() + ": is a directory");
}

TEST_CASE("a released buffer holds nothing and can be read into again") {
  test::TempDir dir;
  REQUIRE(util::write_file_atomic(dir.path() / "c.yaml", "name: c\n"));
  util::PageBuffer buffer;
  REQUIRE(util::read_file_into(dir.path() / "c.yaml", buffer));
  buffer.release();
  CHECK(buffer.data() == nullptr);
  CHECK(buffer.capacity() == 0);
  auto again = util::read_file_into(dir.path() / "c.yaml", buffer);
  REQUIRE(again);
  CHECK(*again == "name: c\n");
}
