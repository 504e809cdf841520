#pragma once

#include "util/error.hpp"

#include <cstddef>
#include <filesystem>
#include <string_view>

namespace opm::util {

// A buffer that files are read into one after another, each read through once: memory of its
// own, mapped in 2 MiB steps advised as huge pages and kept from one file to the next. Filling
// it the first time faults in one page a 2 MiB step where the heap faulted in one a 4 KiB page,
// and a larger file moves it to a larger mapping instead of leaving a smaller block behind.
class PageBuffer {
public:
  static constexpr std::size_t k_step = std::size_t{2} << 20;

  PageBuffer() = default;
  PageBuffer(const PageBuffer&) = delete;
  PageBuffer& operator=(const PageBuffer&) = delete;
  ~PageBuffer();

  // Room for `size` bytes, the first `keep` of them kept; false when the system has no memory
  // to map.
  [[nodiscard]] bool reserve(std::size_t size, std::size_t keep);
  [[nodiscard]] char* data() const { return m_bytes; }
  [[nodiscard]] std::size_t capacity() const { return m_capacity; }
  // Gives the memory back to the system.
  void release();

private:
  char* m_bytes = nullptr;
  std::size_t m_capacity = 0;
};

// The whole file at `path`, read into `buffer`; the view lasts until the buffer is read into
// again or released. Errors read as read_file's.
Result<std::string_view> read_file_into(const std::filesystem::path& path, PageBuffer& buffer);

} // namespace opm::util
