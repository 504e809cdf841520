#pragma once

#include "util/error.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opm::registry {

namespace media {
inline constexpr std::string_view oci_index = "application/vnd.oci.image.index.v1+json";
inline constexpr std::string_view docker_list =
    "application/vnd.docker.distribution.manifest.list.v2+json";
inline constexpr std::string_view oci_manifest = "application/vnd.oci.image.manifest.v1+json";
inline constexpr std::string_view docker_manifest =
    "application/vnd.docker.distribution.manifest.v2+json";
inline constexpr std::string_view docker_schema1 =
    "application/vnd.docker.distribution.manifest.v1+json";
inline constexpr std::string_view docker_schema1_signed =
    "application/vnd.docker.distribution.manifest.v1+prettyjws";
// The Accept header of every manifest request.
inline constexpr std::string_view accept =
    "application/vnd.oci.image.index.v1+json, "
    "application/vnd.docker.distribution.manifest.list.v2+json, "
    "application/vnd.oci.image.manifest.v1+json, "
    "application/vnd.docker.distribution.manifest.v2+json, "
    "application/vnd.docker.distribution.manifest.v1+prettyjws, "
    "application/vnd.docker.distribution.manifest.v1+json";
} // namespace media

inline constexpr std::string_view k_schema1_error =
    "specified image is a docker schema v1 manifest, which is not supported";

struct Platform {
  std::string os;
  std::string architecture;
  std::string variant;
  [[nodiscard]] std::string string() const;
};

struct Descriptor {
  std::string media_type;
  std::string digest;
  std::int64_t size = -1;
  std::optional<Platform> platform;
};

enum class ManifestKind { index, image };

struct Manifest {
  ManifestKind kind = ManifestKind::image;
  std::string media_type;
  Descriptor config;               // image
  std::vector<Descriptor> layers;  // image
  std::vector<Descriptor> entries; // index
};

// Parse a manifest or index body. `content_type` is the response header (parameters are
// ignored); a missing or generic one falls back to the JSON mediaType, then to the shape.
Result<Manifest> parse_manifest(std::string_view body, std::string_view content_type);

// "os/arch[/variant]"
Result<Platform> parse_platform(std::string_view text);
// linux/<the architecture this binary was built for>, GOARCH spelling.
Platform host_platform();

// The index entry for `wanted`. `fallback_amd64` keeps containerd's
// linux/amd64 fallback for hosts of another architecture.
Result<Descriptor> choose_platform(const Manifest& index, const Platform& wanted,
                                   bool fallback_amd64);

struct ImageConfig {
  std::map<std::string, std::string> labels;
  std::vector<std::string> diff_ids;
};
Result<ImageConfig> parse_config(std::string_view body);

} // namespace opm::registry
