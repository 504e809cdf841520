#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace opm::test {

// A private directory for one test; removed afterwards unless the test failed.
class TempDir {
public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "opm-test-XXXXXX").string();
    char* made = ::mkdtemp(pattern.data());
    REQUIRE(made != nullptr);
    m_path = made;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    if (doctest::is_running_in_test && !doctest::getContextOptions()->no_run) {
      std::error_code ec;
      std::filesystem::remove_all(m_path, ec);
    }
  }

  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

  // Write `content` to `relative`, creating parent directories.
  std::filesystem::path write(std::string_view relative, std::string_view content) const {
    auto file = m_path / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    return file;
  }

private:
  std::filesystem::path m_path;
};

} // namespace opm::test
