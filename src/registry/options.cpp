#include "registry/options.hpp"

namespace opm::registry {

std::filesystem::path default_cache_dir(const std::map<std::string, std::string>& env) {
  auto get = [&](const char* name) -> std::string {
    auto it = env.find(name);
    return it == env.end() ? std::string{} : it->second;
  };
  if (auto d = get("OLM_CACHE_DIR"); !d.empty()) {
    return std::filesystem::path(d) / "images";
  }
  if (auto d = get("XDG_CACHE_HOME"); !d.empty()) {
    return std::filesystem::path(d) / "opm";
  }
  if (auto d = get("HOME"); !d.empty()) {
    return std::filesystem::path(d) / ".cache" / "opm";
  }
  return {};
}

} // namespace opm::registry
