#pragma once

#include "image/catalog_image.hpp"
#include "registry/layer_writer.hpp"
#include "registry/manifest.hpp"
#include "registry/puller.hpp"
#include "registry/reference.hpp"
#include "util/error.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

// What catalog and index images share: reading the base image's platforms, a config with
// new layers and history, manifests and the index of a multi-platform image.
namespace opm::image::detail {

// Manifests in the base's own format, so that a Docker base stays a Docker image.
struct Flavor {
  bool docker = false;
  [[nodiscard]] std::string manifest() const;
  [[nodiscard]] std::string index() const;
  [[nodiscard]] std::string config() const;
  [[nodiscard]] std::string layer() const;
};

// One platform of the base: its config, its layers as files, its manifest format.
struct BasePlatform {
  nlohmann::json config;
  std::vector<ImageBlob> layers;
  Flavor flavor;
  std::optional<registry::Platform> platform;
};

// A layer this build wrote, appended after the base's layers.
struct NewLayer {
  registry::WrittenLayer written;
  std::filesystem::path file;
};

// Every platform of `base_image` ("scratch": one empty base for `platform` or this host),
// or the one `platform` names; `canonical` is set for a registry base, whose blobs a push
// to the same registry can mount.
Result<std::vector<BasePlatform>> read_bases(const std::string& base_image,
                                             const std::string& platform, registry::Puller& images,
                                             std::optional<registry::Reference>& canonical);

std::string rfc3339(std::int64_t seconds);

// A history record of the config; `empty` for instructions that add no layer.
nlohmann::json history_entry(std::int64_t created, std::string created_by, std::string_view comment,
                             bool empty);

// Sets config.created, appends `history` and the new layers' diff ids, and makes
// config.config, its Labels and rootfs objects when the base has none; returns config.config
// for the caller's own settings.
nlohmann::json& prepare_config(nlohmann::json& config, std::int64_t created,
                               const std::vector<nlohmann::json>& history,
                               const std::vector<NewLayer>& layers);

// The manifest of one platform: the base's layers, then `layers`, under `config_body`.
ImageManifest assemble(BasePlatform base, std::string config_body,
                       const std::vector<NewLayer>& layers);

// The image of every base platform, with an index when there are several.
BuiltImage assemble_all(std::vector<BasePlatform> bases, const std::vector<NewLayer>& layers,
                        const std::function<std::string(nlohmann::json config)>& make_config);

} // namespace opm::image::detail
