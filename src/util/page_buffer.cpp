#include "util/page_buffer.hpp"

#include "util/fs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <sys/mman.h>

namespace opm::util {

namespace {

std::size_t round_up(std::size_t size, std::size_t step) { return (size + step - 1) / step * step; }

// `size` bytes of fresh memory aligned to a step, so that each step can be one huge page; null
// when the system has none.
char* map_aligned(std::size_t size) {
  const std::size_t span = size + PageBuffer::k_step;
  void* mapped = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) {
    return nullptr;
  }
  const auto start = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t aligned = round_up(start, PageBuffer::k_step);
  const std::size_t head = aligned - start;
  if (head != 0) {
    ::munmap(mapped, head);
  }
  ::munmap(reinterpret_cast<void*>(aligned + size), span - head - size);
  // Advice only: where huge pages are not given, small ones serve.
  ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
  return reinterpret_cast<char*>(aligned);
}

} // namespace

PageBuffer::~PageBuffer() { release(); }

bool PageBuffer::reserve(std::size_t size, std::size_t keep) {
  if (size <= m_capacity) {
    return true;
  }
  const std::size_t capacity = round_up(std::max(size, m_capacity * 2), k_step);
  char* bytes = map_aligned(capacity);
  if (bytes == nullptr) {
    return false;
  }
  if (keep != 0) {
    std::memcpy(bytes, m_bytes, std::min(keep, m_capacity));
  }
  release();
  m_bytes = bytes;
  m_capacity = capacity;
  return true;
}

void PageBuffer::release() {
  if (m_bytes != nullptr) {
    ::munmap(m_bytes, m_capacity);
  }
  m_bytes = nullptr;
  m_capacity = 0;
}

Result<std::string_view> read_file_into(const std::filesystem::path& path, PageBuffer& buffer) {
  const Fd file(OPM_TRY(open_for_reading(path)));
  // One byte more than fstat says, so that a file that grew is noticed and read on.
  const std::size_t expected = OPM_TRY(size_to_read(file.fd, path));
  std::size_t done = 0;
  for (std::size_t wanted = expected + 1;; wanted = buffer.capacity() * 2) {
    if (!buffer.reserve(wanted, done)) {
      return fail(Errc::io, fmt::format("read {}: {}", path.string(), errno_text(ENOMEM)));
    }
    while (done < buffer.capacity()) {
      const std::size_t n =
          OPM_TRY(read_some(file.fd, buffer.data() + done, buffer.capacity() - done, path));
      if (n == 0) {
        return std::string_view(buffer.data(), done);
      }
      done += n;
    }
  }
}

} // namespace opm::util
