#include "migrate/migrate.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <map>
#include <sstream>
#include <sys/stat.h>

namespace opm::migrate {

namespace fs = std::filesystem;

Result<void> check_output_dir(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    return {};
  }
  if (fs::is_directory(dir, ec) && fs::is_empty(dir, ec)) {
    return {};
  }
  return util::fail(Errc::invalid,
                    fmt::format("output dir {} must be empty", util::go_quote(dir.string())));
}

Result<void> write_packages(const catalog::DeclarativeConfig& cfg, catalog::Format format,
                            const fs::path& dir) {
  std::map<std::string, catalog::DeclarativeConfig> by_package;
  for (const auto& p : cfg.packages) {
    by_package[p.name].packages.push_back(p);
  }
  for (const auto& c : cfg.channels) {
    if (auto it = by_package.find(c.package); it != by_package.end()) {
      it->second.channels.push_back(c);
    }
  }
  for (const auto& b : cfg.bundles) {
    if (auto it = by_package.find(b.package); it != by_package.end()) {
      it->second.bundles.push_back(b);
    }
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return util::fail(Errc::io, fmt::format("mkdir {}: {}", dir.string(), ec.message()));
  }
  const char* file = format == catalog::Format::json ? "catalog.json" : "catalog.yaml";
  for (const auto& [name, part] : by_package) {
    auto pkg_dir = dir / name;
    fs::create_directories(pkg_dir, ec);
    if (ec) {
      return util::fail(Errc::io, fmt::format("mkdir {}: {}", pkg_dir.string(), ec.message()));
    }
    std::ostringstream text;
    catalog::write(part, format, text);
    OPM_TRY(util::write_file_atomic(pkg_dir / file, text.str()));
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod((pkg_dir / file).c_str(), 0666 & ~mask);
  }
  return {};
}

} // namespace opm::migrate
