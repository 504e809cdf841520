#pragma once

#include "registry/options.hpp"
#include "registry/puller.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"

#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opm::registry {

// Images read from `docker save` / `podman save` archives: "docker-archive:FILE[:REF]".
// Each archive is unpacked once into a temporary directory (an OCI layout inside is read
// as one); its layers stay there, linked by digest under blobs/. Thread-safe.
class ArchiveSource {
public:
  explicit ArchiveSource(const Options& options) : m_options(options) {}
  ~ArchiveSource() { remove_all(); }
  ArchiveSource(const ArchiveSource&) = delete;
  ArchiveSource& operator=(const ArchiveSource&) = delete;

  // The image the reference names; REF picks one of several by its RepoTags entry.
  Result<PulledImage> pull(std::string_view ref);
  // The layout root holding the layers of an archive pulled before, if any.
  std::optional<std::filesystem::path> layer_root(std::string_view ref);
  // Removes every temporary directory.
  void remove_all();

private:
  Result<std::filesystem::path> unpacked(std::string_view rest, const std::string& file);

  const Options& m_options;
  std::mutex m_mutex;
  std::map<std::string, util::TempTree> m_dirs; // "FILE[:REF]" -> temporary directory
  std::vector<util::TempTree> m_spare_dirs;     // unpacked twice at once: the second copy
};

} // namespace opm::registry
