#pragma once

#include "registry/detail/image_source.hpp"
#include "registry/manifest.hpp"
#include "registry/options.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <string>
#include <string_view>

// Images read from an OCI image layout directory, "oci:DIR[:TAG]": the manifest named TAG,
// or the only one when there is no TAG. Nothing is copied; every blob is verified against
// its digest.
namespace opm::registry {

// The image `top` names in the layout at `root` (an index picks `platform`, see
// platform_child), with its labels; manifest, config and every layer are verified.
Result<PulledImage> read_layout_image(std::string_view ref, const std::filesystem::path& root,
                                      const Descriptor& top, const std::string& platform);

class LayoutSource final : public ImageSource {
public:
  explicit LayoutSource(const Options& options) : m_options(options) {}

  Result<PulledImage> pull(const ImageLocation& at, PullParts parts,
                           const PulledImage* earlier) override;
  Result<std::filesystem::path> layer_root(const ImageLocation& at) override;
  bool local() const override { return true; }
  void reset() override {}

private:
  const Options& m_options;
};

} // namespace opm::registry
