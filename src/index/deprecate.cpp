#include "index/deprecate.hpp"

#include "index/database_copy.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/deprecate.hpp"
#include "sqlite/migrations.hpp"
#include "sqlite/package_read.hpp"
#include "sqlite/remove.hpp"
#include "util/go_errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace opm::index {

namespace {

std::string go_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : " ") + items[i];
  }
  return out + "]";
}

// Go's %#v of a []string that is nil when empty.
std::string go_syntax(const std::vector<std::string>& items) {
  if (items.empty()) {
    return "[]string(nil)";
  }
  std::string out = "[]string{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += fmt::format("{}\"{}\"", i == 0 ? "" : ", ", items[i]);
  }
  return out + "}";
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

Error aggregate(const std::vector<Error>& errors) {
  if (errors.size() == 1) {
    return errors.front();
  }
  return Error(Errc::invalid, util::aggregate_text(errors));
}

// The requested images that are stored; the others are an error.
Result<std::vector<std::string>> stored_images(sqlite::Connection& db,
                                               const std::vector<std::string>& images,
                                               std::vector<std::string>& found) {
  if (images.empty()) {
    return images;
  }
  auto stored = OPM_TRY(sqlite::served_bundle_images(db));
  if (stored.empty()) {
    return found; // an empty index: nothing to deprecate, and no error
  }
  std::vector<std::string> missing;
  for (const auto& image : images) {
    (stored.contains(image) ? found : missing).push_back(image);
  }
  if (!missing.empty()) {
    return util::fail(Errc::not_found,
                      fmt::format("target bundlepaths for deprecation missing from registry: {}",
                                  go_list(missing)));
  }
  return found;
}

// Packages whose default channel head is requested lose every channel when all their heads
// are requested; their heads leave `bundles`.
Result<void> remove_whole_packages(sqlite::Connection& db, std::vector<std::string>& bundles,
                                   const DeprecateRequest& request) {
  if (request.info) {
    request.info("allow-package-removal enabled: checking default channel heads for package "
                 "removal",
                 bundles);
  }
  std::vector<std::string> packages;
  for (const auto& b : bundles) {
    auto package = OPM_TRY(sqlite::package_of_default_head(db, b));
    if (!package.empty()) {
      packages.push_back(package);
    }
  }
  if (packages.empty()) {
    if (request.info) {
      request.info("no head of default channel found - skipping package removal", bundles);
    }
    return {};
  }
  std::vector<std::string> removed;
  for (const auto& package : packages) {
    for (const auto& channel : OPM_TRY(sqlite::package_channels(db, package))) {
      auto head = OPM_TRY(sqlite::channel_head_image(db, package, channel));
      if (!contains(bundles, head)) {
        return util::fail(
            Errc::invalid,
            fmt::format("cannot deprecate default channel head from package without removing "
                        "all other channel heads in package {}: must deprecate {}, head of "
                        "channel {}",
                        package, head, channel));
      }
      removed.push_back(head);
    }
  }
  if (request.info) {
    request.info(fmt::format("removing packages {}", go_syntax(packages)), bundles);
  }
  std::vector<Error> errors;
  for (const auto& package : packages) {
    if (auto gone = sqlite::remove_package(db, package); !gone) {
      errors.emplace_back(Errc::invalid, fmt::format("error removing package {}: {}", package,
                                                     gone.error().message()));
    }
  }
  auto remaining = bundles;
  std::erase_if(remaining, [&](const std::string& b) { return contains(removed, b); });
  if (request.info) {
    request.info(fmt::format("remaining bundles to deprecate {}", go_syntax(remaining)), bundles);
  }
  bundles = std::move(remaining);
  if (!errors.empty()) {
    return std::unexpected(aggregate(errors));
  }
  return {};
}

Result<void> deprecate_each(sqlite::Connection& db, const std::vector<std::string>& bundles,
                            const DeprecateRequest& request) {
  if (request.info) {
    request.info("deprecating bundles", bundles);
  }
  std::vector<Error> errors;
  for (const auto& b : bundles) {
    auto done = sqlite::deprecate_bundle(db, b);
    if (done || done.error().code() == Errc::not_found) {
      continue;
    }
    errors.emplace_back(Errc::invalid,
                        fmt::format("error deprecating bundle {}: {}", b, done.error().message()));
    if (done.error().code() != Errc::not_allowed) {
      break;
    }
  }
  if (!errors.empty()) {
    return std::unexpected(aggregate(errors));
  }
  return {};
}

// Permissive: log and go on; otherwise log and fail.
Result<void> tolerate(Result<void> step, const DeprecateRequest& request) {
  if (step) {
    return {};
  }
  if (!request.permissive) {
    if (request.not_tolerated) {
      request.not_tolerated(step.error());
    }
    return step;
  }
  if (request.tolerated) {
    request.tolerated(step.error());
  }
  return {};
}

} // namespace

Result<void> deprecate_truncate(const DeprecateRequest& request) {
  auto copy = OPM_TRY(DatabaseCopy::make(request.database));
  {
    auto db = OPM_TRY(sqlite::Connection::open(copy.path(), sqlite::OpenMode::read_write_create));
    if (auto migrated = sqlite::migrate(db); !migrated) {
      return util::fail(Errc::invalid,
                        fmt::format("unable to migrate database: {}", migrated.error().message()));
    }
    std::vector<std::string> bundles;
    auto stored = stored_images(db, request.bundles, bundles);
    if (stored) {
      bundles = *stored;
    }
    OPM_TRY(tolerate(stored ? Result<void>{} : std::unexpected(stored.error()), request));
    if (request.allow_package_removal) {
      OPM_TRY(tolerate(remove_whole_packages(db, bundles, request), request));
    }
    OPM_TRY(tolerate(deprecate_each(db, bundles, request), request));
    OPM_TRY(db.compact());
  }
  return copy.commit();
}

} // namespace opm::index
