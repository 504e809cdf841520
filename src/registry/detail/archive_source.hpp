#pragma once

#include "registry/detail/image_source.hpp"
#include "registry/options.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"

#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace opm::registry {

// Images read from `docker save` / `podman save` archives: "docker-archive:FILE[:REF]".
// Each archive is unpacked once into a temporary directory (an OCI layout inside is read
// as one); its layers stay there, linked by digest under blobs/. Thread-safe.
class ArchiveSource final : public ImageSource {
public:
  explicit ArchiveSource(const Options& options) : m_options(options) {}
  ~ArchiveSource() override { reset(); }
  ArchiveSource(const ArchiveSource&) = delete;
  ArchiveSource& operator=(const ArchiveSource&) = delete;

  // The image the location names; REF picks one of several by its RepoTags entry.
  Result<PulledImage> pull(const ImageLocation& at, PullParts parts,
                           const PulledImage* earlier) override;
  // The layout root holding the layers of an archive pulled before.
  Result<std::filesystem::path> layer_root(const ImageLocation& at) override;
  bool local() const override { return true; }
  // Removes every temporary directory.
  void reset() override;

private:
  Result<std::filesystem::path> unpacked(const std::string& key, const std::filesystem::path& file);

  const Options& m_options;
  std::mutex m_mutex;
  std::map<std::string, util::TempTree> m_dirs; // location text -> temporary directory
  std::vector<util::TempTree> m_spare_dirs;     // unpacked twice at once: the second copy
};

} // namespace opm::registry
