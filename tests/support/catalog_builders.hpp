#pragma once

// Small builders for declarative configs in unit tests: every object gets a location in
// a made-up file, one line per object, so tests can check where problems are reported.

#include "catalog/declcfg.hpp"

#include <string>
#include <vector>

namespace opm::test {

inline const std::string k_file = "catalog/index.yaml";

inline Location line(std::size_t n) { return Location{k_file, n, 1}; }

inline catalog::Package package(std::string name, std::string default_channel, std::size_t at = 1) {
  catalog::Package p;
  p.name = std::move(name);
  p.default_channel = std::move(default_channel);
  p.where = line(at);
  return p;
}

inline catalog::ChannelEntry entry(std::string name, std::string replaces = {},
                                   std::vector<std::string> skips = {},
                                   std::string skip_range = {}) {
  return catalog::ChannelEntry{std::move(name), std::move(replaces), std::move(skips),
                               std::move(skip_range)};
}

inline catalog::Channel channel(std::string package, std::string name,
                                std::vector<catalog::ChannelEntry> entries, std::size_t at = 1) {
  catalog::Channel c;
  c.package = std::move(package);
  c.name = std::move(name);
  c.entries = std::move(entries);
  c.where = line(at);
  return c;
}

inline catalog::Property package_property(const std::string& package, const std::string& version,
                                          const std::string& release = {}) {
  Json value = {{"packageName", package}, {"version", version}};
  if (!release.empty()) {
    value["release"] = release;
  }
  return catalog::Property{"olm.package", std::move(value)};
}

// A bundle with one olm.package property (version 1.0.0 unless given) and an image.
inline catalog::Bundle bundle(std::string package, std::string name, std::size_t at = 1,
                              std::string version = "1.0.0",
                              std::string image = "quay.io/example/bundle:v1") {
  catalog::Bundle b;
  b.properties.push_back(package_property(package, version));
  b.package = std::move(package);
  b.name = std::move(name);
  b.image = std::move(image);
  b.where = line(at);
  return b;
}

inline catalog::Deprecation deprecation(std::string package,
                                        std::vector<catalog::DeprecationEntry> entries,
                                        std::size_t at = 1) {
  catalog::Deprecation d;
  d.package = std::move(package);
  d.entries = std::move(entries);
  d.where = line(at);
  return d;
}

inline catalog::DeprecationEntry deprecate(std::string schema, std::string name,
                                           std::string message = "deprecated") {
  return catalog::DeprecationEntry{{std::move(schema), std::move(name)}, std::move(message)};
}

} // namespace opm::test
