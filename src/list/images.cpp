#include "list/images.hpp"

#include "json/go_json.hpp"
#include "json/value.hpp"

#include <map>
#include <set>
#include <utility>

namespace opm::list {

namespace {

using Users = std::set<std::pair<std::string, std::string>>; // package, bundle

std::map<std::string, Users> images_of(const catalog::DeclarativeConfig& cfg) {
  std::map<std::string, Users> out;
  for (const auto& b : cfg.bundles) {
    auto add = [&](const std::string& image) {
      if (!image.empty()) {
        out[image].emplace(b.package, b.name);
      }
    };
    add(b.image);
    for (const auto& related : b.related_images) {
      add(related.image);
    }
  }
  return out;
}

} // namespace

std::string list_images(const catalog::DeclarativeConfig& cfg, bool as_json) {
  auto images = images_of(cfg);
  if (!as_json) {
    std::string out;
    for (const auto& [image, users] : images) {
      out += image;
      out += '\n';
    }
    return out;
  }
  Json all = Json::array();
  for (const auto& [image, users] : images) {
    Json bundles = Json::array();
    for (const auto& [package, name] : users) {
      bundles.push_back(Json{{"package", package}, {"name", name}});
    }
    all.push_back(Json{{"image", image}, {"bundles", std::move(bundles)}});
  }
  return json::indent(json::marshal(all)) + "\n";
}

} // namespace opm::list
