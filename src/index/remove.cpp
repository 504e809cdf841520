#include "index/remove.hpp"

#include "index/database_copy.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/migrations.hpp"
#include "sqlite/remove.hpp"

#include <algorithm>

namespace opm::index {

namespace {

// Upstream's sanitizePackageList over every value split on ",".
std::vector<std::string> package_list(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& value : values) {
    std::size_t start = 0;
    while (true) {
      auto comma = value.find(',', start);
      auto name = value.substr(start, comma - start);
      if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) {
        out.push_back(name);
      }
      if (comma == std::string::npos) {
        break;
      }
      start = comma + 1;
    }
  }
  return out;
}

Result<void> remove_stranded(sqlite::Connection& db) {
  if (auto removed = sqlite::remove_stranded_bundles(db); !removed) {
    return std::unexpected(
        std::move(removed).error().wrap("error removing stranded packages from database"));
  }
  return db.exec("VACUUM");
}

} // namespace

Result<void> remove_packages(const RemoveRequest& request) {
  auto copy = OPM_TRY(DatabaseCopy::make(request.database));
  {
    auto db = OPM_TRY(sqlite::Connection::open(copy.path(), sqlite::OpenMode::read_write_create));
    OPM_TRY(sqlite::migrate(db));
    for (const auto& package : package_list(request.packages)) {
      auto removed = sqlite::remove_package(db, package);
      if (removed) {
        continue;
      }
      Error e(removed.error().code(),
              "error deleting packages from database: error removing operator package " + package +
                  ": " + removed.error().message());
      if (!request.permissive) {
        return std::unexpected(std::move(e));
      }
      if (request.tolerated) {
        request.tolerated(e);
      }
    }
    OPM_TRY(remove_stranded(db));
  }
  return copy.commit();
}

Result<void> prune_stranded(const std::filesystem::path& database) {
  auto copy = OPM_TRY(DatabaseCopy::make(database));
  {
    auto db = OPM_TRY(sqlite::Connection::open(copy.path(), sqlite::OpenMode::read_write_create));
    OPM_TRY(sqlite::migrate(db));
    OPM_TRY(remove_stranded(db));
  }
  return copy.commit();
}

} // namespace opm::index
