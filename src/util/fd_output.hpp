#pragma once

#include "util/error.hpp"

#include <array>
#include <streambuf>
#include <string>

namespace opm::util {

// A buffered std::streambuf on a file descriptor that remembers the first failed write, so
// a command can tell that its output did not arrive whole (a full disk, /dev/full, a closed
// pipe) instead of reporting success. `name` is what Go calls the file: "/dev/stdout".
class FdOutput : public std::streambuf {
public:
  FdOutput(int fd, std::string name) : m_fd(fd), m_name(std::move(name)) {
    setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
  }
  FdOutput(const FdOutput&) = delete;
  FdOutput& operator=(const FdOutput&) = delete;
  ~FdOutput() override { flush(); }

  // Writes what is buffered; then the first failure as Go words it
  // ("write /dev/stdout: no space left on device"), if there was one.
  Result<void> flush();

protected:
  int_type overflow(int_type c) override;
  int sync() override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;

private:
  bool write_all(const char* data, std::size_t size);
  bool drain();

  int m_fd;
  std::string m_name;
  int m_errno = 0;
  std::array<char, 1 << 16> m_buffer{};
};

} // namespace opm::util
