#pragma once

#include "util/error.hpp"
#include "util/log.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

// `opm registry add`: bundle images loaded into an index database in replaces mode, as
// upstream v1.26.5's RegistryAdder and DirectoryPopulator do (pkg/lib/registry,
// pkg/registry/populator.go).
namespace opm::index {

// How channel graphs are updated: CSV replaces/skips, or by version order (semver-skippatch
// also lets a bundle replace the lower patch releases of its minor version).
enum class Mode { replaces, semver, semver_skippatch };

struct AddRequest {
  std::filesystem::path database = {};   // created when missing
  std::vector<std::string> bundles = {}; // image references, in order
  Mode mode = Mode::replaces;
  // Replace channel heads by bundles of the same CSV name (a new image of the latest bundle).
  bool overwrite_latest = false;
  bool enable_alpha = false;
  // --permissive: a failure while loading bundles is handed to `tolerated` and the database
  // keeps what was written before it, as upstream keeps it.
  bool permissive = false;
  std::function<void(const Error&)> tolerated = {};
  // Asked before the database is replaced: true (an interrupt arrived) keeps it as it was.
  std::function<bool()> cancelled = {};
  // Bundles unpacked and parsed at once; `unpack` must then be safe to call from threads.
  std::size_t jobs = 1;
  // Upstream's per-bundle info lines ("Could not find optional dependencies file" with the
  // fields file, load and with), in its order.
  std::function<void(const std::string& message, std::vector<util::LogField> fields)> info = {};
};

// Unpack the image `ref` into the existing directory `dir`.
using Unpack =
    std::function<Result<void>(const std::string& ref, const std::filesystem::path& dir)>;

// Unpack and parse every bundle, check them against the index (an image already stored for
// the package: "Bundle <image> already exists", Errc::bundle_exists; a CSV already in one of
// the package's channels: "Bundle already added that provides package and csv",
// Errc::version_exists), store them and rebuild each touched package's channels. The work
// happens on a copy of the database that replaces the file only when everything succeeded,
// so a failed add leaves the file as it was (unless permissive).
Result<void> add(const AddRequest& request, const Unpack& unpack);

} // namespace opm::index
