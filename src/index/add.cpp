#include "index/add.hpp"

#include "index/database_copy.hpp"
#include "index/detail/add_checks.hpp"
#include "index/detail/add_input.hpp"
#include "index/detail/add_modes.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/migrations.hpp"
#include "sqlite/overwrite.hpp"
#include "util/fs.hpp"
#include "util/owned_temp.hpp"
#include "util/parallel.hpp"

#include <filesystem>
#include <map>
#include <optional>

namespace opm::index {

namespace {

namespace fs = std::filesystem;
using detail::Input;
using detail::load_bundle;

// What upstream's bundle parser logs for one bundle directory.
void log_parsed(const AddRequest& request, const Input& in) {
  if (!request.info) {
    return;
  }
  std::vector<util::LogField> fields{
      {"file", (fs::path(in.dir).lexically_normal() / "metadata").string()},
      {"load", "annotations"},
      {"with", in.dir}};
  if (!in.dependencies_file) {
    request.info("Could not find optional dependencies file", fields);
  }
  if (!in.properties_file) {
    request.info("Could not find optional properties file", fields);
  }
}

Result<void> populate(sqlite::Connection& db, const AddRequest& request, const Unpack& unpack) {
  // Pulling and parsing dominate; they run on `jobs` threads, results kept in input order.
  std::vector<std::optional<Result<Input>>> loaded(request.bundles.size());
  util::run_indexed(request.bundles.size(), request.jobs,
                    [&](std::size_t i) { loaded[i] = load_bundle(request.bundles[i], unpack); });
  std::vector<Input> inputs;
  std::vector<Error> errors;
  for (auto& in : loaded) {
    if (!*in) {
      errors.push_back(std::move(*in).error());
      continue;
    }
    // Upstream parses each bundle as it is unpacked, stopping at the first failure.
    if (errors.empty()) {
      log_parsed(request, **in);
    }
    inputs.push_back(std::move(**in));
  }
  if (!errors.empty()) {
    return std::unexpected(detail::aggregate(errors));
  }
  // ...and parses every bundle once more before loading them.
  for (const auto& in : inputs) {
    log_parsed(request, in);
  }
  std::map<std::string, std::vector<std::string>> overwritten;
  if (request.overwrite_latest) {
    overwritten = OPM_TRY(overwritten_bundles(db, inputs));
  }
  OPM_TRY(sanity_check(db, inputs, !overwritten.empty()));
  if (request.mode == Mode::replaces) {
    for (const auto& [package, names] : overwritten) {
      OPM_TRY(sqlite::remove_overwritten_head(db, package, names.front()));
    }
    OPM_TRY(load_packages(db, inputs, request.enable_alpha));
  } else {
    OPM_TRY(load_semver(db, inputs, request.mode == Mode::semver_skippatch, request.enable_alpha));
  }
  return check_reachable(db, inputs);
}

} // namespace

Result<void> add(const AddRequest& request, const Unpack& unpack) {
  util::remove_stale_marked(".", "bundle_tmp");
  auto copy = OPM_TRY(DatabaseCopy::make(request.database));
  {
    auto db = OPM_TRY(sqlite::Connection::open(copy.path(), sqlite::OpenMode::read_write_create));
    OPM_TRY(db.hold_as_private_copy());
    OPM_TRY(sqlite::migrate(db));
    if (auto populated = populate(db, request, unpack); !populated) {
      if (!request.permissive) {
        return populated;
      }
      if (request.tolerated) {
        request.tolerated(populated.error());
      }
    }
  }
  if (request.cancelled && request.cancelled()) {
    return util::fail(Errc::io, "interrupted");
  }
  return copy.commit();
}

} // namespace opm::index
