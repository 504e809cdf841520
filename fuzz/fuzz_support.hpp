#pragma once

#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

// Shared by the libFuzzer targets: the input as text, and invariant checks that abort (so that
// libFuzzer records the input) with the broken expectation on stderr.
namespace opm::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

[[noreturn]] inline void invariant_failed(const char* expression, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, expression);
  std::abort();
}

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it when this goes away.
class TempDir {
public:
  TempDir() {
    auto base = std::filesystem::temp_directory_path() / "opm-fuzz-XXXXXX";
    std::string name = base.string();
    if (::mkdtemp(name.data()) == nullptr) {
      std::perror("mkdtemp");
      std::abort();
    }
    m_path = name;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

private:
  std::filesystem::path m_path;
};

inline void write_file(const std::filesystem::path& path, std::string_view content) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out) {
    std::perror(path.c_str());
    std::abort();
  }
}

} // namespace opm::fuzz

#define OPM_FUZZ_CHECK(condition)                                                                  \
  do {                                                                                             \
    if (!(condition)) {                                                                            \
      ::opm::fuzz::invariant_failed(#condition, __FILE__, __LINE__);                               \
    }                                                                                              \
  } while (false)
