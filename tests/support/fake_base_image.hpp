#pragma once

#include "registry/digest.hpp"
#include "registry/puller.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

namespace opm::test {

// A base image of one layer, served from files in a directory.
class FakeBase final : public registry::Puller {
public:
  explicit FakeBase(std::filesystem::path dir, std::string manifest_type) : m_dir(std::move(dir)) {
    std::string layer = "not really a tar";
    m_layer = put(layer);
    nlohmann::json config = {{"architecture", "amd64"},
                             {"os", "linux"},
                             {"config", {{"Labels", {{"base", "yes"}}}, {"User", "1001"}}},
                             {"rootfs", {{"type", "layers"}, {"diff_ids", {m_layer}}}},
                             {"history", nlohmann::json::array({{{"created_by", "base"}}})}};
    m_config = put(config.dump());
    nlohmann::json manifest = {
        {"schemaVersion", 2},
        {"mediaType", manifest_type},
        {"config", {{"mediaType", "c"}, {"digest", m_config}, {"size", 1}}},
        {"layers", nlohmann::json::array({{{"mediaType", "l"},
                                           {"digest", m_layer},
                                           {"size", static_cast<int>(layer.size())}}})}};
    m_manifest = put(manifest.dump());
  }
  Result<registry::PulledImage> pull(const registry::ImageLocation& at) override {
    registry::PulledImage p;
    p.reference = at.text;
    p.digest = m_manifest;
    p.image_digest = m_manifest;
    p.config_digest = m_config;
    return p;
  }
  Result<registry::Labels> labels(const registry::ImageLocation&) override {
    return registry::Labels{};
  }
  Result<void> unpack(const registry::ImageLocation&, const std::filesystem::path&,
                      const std::vector<std::string>&) override {
    return {};
  }
  std::vector<Result<registry::PulledImage>>
  pull_all(std::span<const registry::ImageLocation>) override {
    return {};
  }
  Result<std::filesystem::path> blob_file(const registry::ImageLocation&,
                                          std::string_view digest) override {
    return m_dir / std::string(registry::digest_hex(digest));
  }
  void destroy() override {}

  std::string m_layer;

private:
  std::string put(const std::string& bytes) {
    std::string d = registry::digest_of(bytes);
    std::ofstream(m_dir / std::string(registry::digest_hex(d)), std::ios::binary) << bytes;
    return d;
  }
  std::filesystem::path m_dir;
  std::string m_config;
  std::string m_manifest;
};

} // namespace opm::test
