#include "util/page_buffer.hpp"

#include "util/fs.hpp"

#include <algorithm>
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
  const std::size_t done =
      OPM_TRY(read_whole(file.fd, path, [&](std::size_t size, std::size_t kept) {
        return buffer.reserve(size, kept) ? std::span<char>(buffer.data(), buffer.capacity())
                                          : std::span<char>();
      }));
  return std::string_view(buffer.data(), done);
}

} // namespace opm::util
