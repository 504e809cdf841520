#include "index/remove.hpp"

#include "index/database_copy.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/migrations.hpp"
#include "sqlite/package_read.hpp"
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

Result<void> remove_stranded(sqlite::Connection& db, const std::function<void()>& removed_hook) {
  if (auto removed = sqlite::remove_stranded_bundles(db); !removed) {
    return std::unexpected(
        std::move(removed).error().wrap("error removing stranded packages from database"));
  }
  if (removed_hook) {
    removed_hook();
  }
  return db.compact();
}

Result<void> remove_each(sqlite::Connection& db, const std::vector<std::string>& packages,
                         const RemoveRequest& request) {
  for (const auto& package : packages) {
    if (request.deleting) {
      request.deleting(package);
    }
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
  return {};
}

} // namespace

Result<void> remove_packages(const RemoveRequest& request) {
  auto copy = OPM_TRY(DatabaseCopy::make(request.database));
  {
    auto db = OPM_TRY(sqlite::Connection::open(copy.path(), sqlite::OpenMode::read_write_create));
    OPM_TRY(sqlite::migrate(db));
    OPM_TRY(remove_each(db, package_list(request.packages), request));
    OPM_TRY(remove_stranded(db, request.stranded_removed));
  }
  return copy.commit();
}

Result<void> prune_packages(const RemoveRequest& request) {
  auto copy = OPM_TRY(DatabaseCopy::make(request.database));
  {
    auto db = OPM_TRY(sqlite::Connection::open(copy.path(), sqlite::OpenMode::read_write_create));
    OPM_TRY(sqlite::migrate(db));
    auto stored = OPM_TRY(sqlite::package_names(db));
    if (request.not_stored) {
      for (const auto& kept : request.packages) {
        if (std::find(stored.begin(), stored.end(), kept) == stored.end()) {
          request.not_stored(kept);
        }
      }
    }
    std::vector<std::string> doomed;
    for (auto& package : stored) {
      if (std::find(request.packages.begin(), request.packages.end(), package) ==
          request.packages.end()) {
        doomed.push_back(std::move(package));
      }
    }
    OPM_TRY(remove_each(db, doomed, request));
    OPM_TRY(db.compact());
  }
  return copy.commit();
}

Result<void> prune_stranded(const std::filesystem::path& database,
                            const std::function<void()>& stranded_removed) {
  auto copy = OPM_TRY(DatabaseCopy::make(database));
  {
    auto db = OPM_TRY(sqlite::Connection::open(copy.path(), sqlite::OpenMode::read_write_create));
    OPM_TRY(sqlite::migrate(db));
    OPM_TRY(remove_stranded(db, stranded_removed));
  }
  return copy.commit();
}

} // namespace opm::index
