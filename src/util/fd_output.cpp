#include "util/fd_output.hpp"

#include "util/fs.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>

namespace opm::util {

bool FdOutput::write_all(const char* data, std::size_t size) {
  if (m_errno != 0) {
    return false;
  }
  while (size > 0) {
    const ssize_t written = ::write(m_fd, data, size);
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      m_errno = errno;
      return false;
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

bool FdOutput::drain() {
  const auto pending = static_cast<std::size_t>(pptr() - pbase());
  setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
  return write_all(m_buffer.data(), pending);
}

FdOutput::int_type FdOutput::overflow(int_type c) {
  if (!drain()) {
    return traits_type::eof();
  }
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int FdOutput::sync() { return drain() ? 0 : -1; }

std::streamsize FdOutput::xsputn(const char* s, std::streamsize n) {
  const auto size = static_cast<std::size_t>(n);
  if (size <= static_cast<std::size_t>(epptr() - pptr())) {
    traits_type::copy(pptr(), s, size);
    pbump(static_cast<int>(n));
    return n;
  }
  if (!drain() || !write_all(s, size)) {
    return 0;
  }
  return n;
}

Result<void> FdOutput::flush() {
  drain();
  if (m_errno != 0) {
    return fail(Errc::io, fmt::format("write {}: {}", m_name, errno_text(m_errno)));
  }
  return {};
}

} // namespace opm::util
