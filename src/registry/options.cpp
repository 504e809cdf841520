#include "registry/options.hpp"

#include <cstdlib>

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

Result<void> check_flag_combination(bool use_http, bool skip_tls_verify, bool skip_tls) {
  if (use_http && skip_tls) {
    return util::fail(Errc::usage,
                      "invalid flag combination: cannot use --use-http with --skip-tls");
  }
  if (skip_tls_verify && skip_tls) {
    return util::fail(Errc::usage,
                      "invalid flag combination: cannot use --skip-tls-verify with --skip-tls");
  }
  if (use_http && skip_tls_verify) {
    return util::fail(Errc::usage,
                      "invalid flag combination: --use-http and --skip-tls-verify cannot both be "
                      "true");
  }
  return {};
}

UnpackLimits limits_from_env(const std::map<std::string, std::string>& env) {
  UnpackLimits l;
  auto get = [&](const char* name, std::uint64_t& into) {
    auto it = env.find(name);
    if (it == env.end() || it->second.empty()) {
      return;
    }
    char* end = nullptr;
    unsigned long long v = std::strtoull(it->second.c_str(), &end, 10);
    if (end != nullptr && *end == '\0') {
      into = v;
    }
  };
  get("OPM_UNPACK_MAX_TOTAL", l.max_total_bytes);
  get("OPM_UNPACK_MAX_FILE", l.max_file_bytes);
  get("OPM_UNPACK_MAX_ENTRIES", l.max_entries);
  get("OPM_UNPACK_MAX_RATIO", l.max_ratio);
  get("OPM_UNPACK_RATIO_FLOOR", l.ratio_floor_bytes);
  return l;
}

} // namespace opm::registry
