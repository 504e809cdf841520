#include "index/detail/add_checks.hpp"

#include "sqlite/package_graph.hpp"
#include "sqlite/package_read.hpp"
#include "util/go_errors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

namespace opm::index::detail {

namespace {

// Every name a bundle uses (its skips, replaces and own name) belongs to one package, in the
// request and on the index. Returns the first conflict found.
Result<std::optional<std::string>> edge_package_conflict(sqlite::Connection& db,
                                                         const std::vector<Input>& inputs) {
  std::map<std::string, std::string> expected;
  for (const auto& in : inputs) {
    std::vector<std::string> names = in.row.skips;
    names.push_back(in.row.replaces);
    names.push_back(in.row.name);
    for (const auto& name : names) {
      if (name.empty()) {
        continue;
      }
      if (auto it = expected.find(name); it != expected.end() && it->second != in.package) {
        auto pkgs = std::minmax(it->second, in.package);
        return std::optional(fmt::format("bundle {} must belong to exactly one package, found "
                                         "on: [{} {}]",
                                         name, pkgs.first, pkgs.second));
      }
      expected[name] = in.package;
    }
  }
  if (expected.empty()) {
    return std::optional<std::string>();
  }
  for (const auto& package : OPM_TRY(sqlite::package_names(db))) {
    for (const auto& e : OPM_TRY(sqlite::package_entries(db, package))) {
      if (auto it = expected.find(e.bundle.name); it != expected.end() && it->second != package) {
        return std::optional(fmt::format("bundle {} belongs to package {} on index, cannot be "
                                         "added as an edge for package {}",
                                         e.bundle.name, package, it->second));
      }
    }
  }
  return std::optional<std::string>();
}

} // namespace

Error aggregate(const std::vector<Error>& errors) {
  Errc code = Errc::invalid;
  for (const auto& e : errors) {
    if (e.code() == Errc::bundle_exists || e.code() == Errc::version_exists) {
      code = e.code();
      break;
    }
  }
  return Error(code, util::aggregate_text(errors));
}

// Upstream's globalSanityCheck. With `overwrite`, a CSV already in a channel may come again
// if nothing replaces it there, once per package.
Result<void> sanity_check(sqlite::Connection& db, const std::vector<Input>& inputs,
                          bool overwrite) {
  std::set<std::string> images;
  for (const auto& in : inputs) {
    images.insert(in.image);
  }
  std::vector<Error> errors;
  std::set<std::string> overwritten_packages;
  for (const auto& in : inputs) {
    auto paths = OPM_TRY(sqlite::package_bundle_paths(db, in.package));
    if (!paths) {
      return {};
    }
    for (const auto& path : *paths) {
      if (images.contains(path)) {
        errors.emplace_back(Errc::bundle_exists, fmt::format("Bundle {} already exists", in.image));
      }
    }
    bool valid_overwrite = false;
    for (const auto& channel : OPM_TRY(sqlite::package_channels(db, in.package))) {
      if (!OPM_TRY(sqlite::channel_has_bundle(db, in.package, channel, in.row.name))) {
        continue;
      }
      if (!overwrite) {
        errors.emplace_back(Errc::version_exists,
                            "Bundle already added that provides package and csv");
        break;
      }
      if (!OPM_TRY(sqlite::replaced_in_channel(db, in.package, channel, in.row.name))) {
        valid_overwrite = true;
        continue;
      }
      errors.emplace_back(Errc::invalid, "Cannot overwrite a bundle that is not at the head of a "
                                         "channel using --overwrite-latest");
      valid_overwrite = false;
      break;
    }
    if (valid_overwrite && !overwritten_packages.insert(in.package).second) {
      errors.emplace_back(Errc::invalid, "Cannot overwrite more than one bundle at a time for a "
                                         "given package using --overwrite-latest");
      break;
    }
  }
  if (auto conflict = OPM_TRY(edge_package_conflict(db, inputs))) {
    errors.emplace_back(Errc::invalid, *conflict);
  }
  if (!errors.empty()) {
    return std::unexpected(aggregate(errors));
  }
  return {};
}

// --overwrite-latest: per package, the bundles of the request already stored (with an image).
Result<std::map<std::string, std::vector<std::string>>>
overwritten_bundles(sqlite::Connection& db, const std::vector<Input>& inputs) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& in : inputs) {
    auto image = OPM_TRY(sqlite::bundle_image(db, in.row.name));
    if (!image) {
      continue;
    }
    if (image->empty()) {
      return util::fail(Errc::invalid,
                        "index add --overwrite-latest is only supported when using bundle images");
    }
    out[in.package].push_back(in.row.name);
  }
  return out;
}

// Every added bundle must be reachable from the head of each of its channels.
Result<void> check_reachable(sqlite::Connection& db, const std::vector<Input>& inputs) {
  std::vector<Error> errors;
  for (const auto& in : inputs) {
    auto graphs = sqlite::load_channel_graphs(db, in.package);
    if (!graphs) {
      errors.emplace_back(Errc::invalid,
                          fmt::format("unable to verify added bundles for package {}: {}",
                                      in.package, graphs.error().message()));
      continue;
    }
    for (const auto& channel : in.channels) {
      const sqlite::GraphChannel& graph = (*graphs)[channel];
      bool found = false;
      std::vector<sqlite::BundleKey> next{graph.head};
      std::set<sqlite::BundleKey> seen;
      for (std::size_t i = 0; i < next.size() && !found; ++i) {
        found = next[i].path == in.image;
        if (!seen.insert(next[i]).second) {
          continue;
        }
        if (auto it = graph.nodes.find(next[i]); it != graph.nodes.end()) {
          next.insert(next.end(), it->second.begin(), it->second.end());
        }
      }
      if (found) {
        continue;
      }
      std::string head_skips = "[";
      if (auto it = graph.nodes.find(graph.head); it != graph.nodes.end()) {
        bool first = true;
        for (const auto& b : it->second) {
          head_skips += (first ? "" : " ") + b.name;
          first = false;
        }
      }
      head_skips += "]";
      errors.emplace_back(
          Errc::invalid,
          fmt::format("add prunes bundle {} ({}) from package {}, channel {}: this may be due to "
                      "incorrect channel head ({}, skips/replaces {}). Be aware that the head of "
                      "the channel {} where you are trying to add the {} is {}. Upgrade graphs "
                      "follows the Semantic Versioning 2.0.0 (https://semver.org/) which means "
                      "that is not possible add new versions lower then the head of the channel",
                      in.row.name, in.image, in.package, channel, graph.head.name, head_skips,
                      channel, in.row.name, graph.head.name));
    }
  }
  if (!errors.empty()) {
    return std::unexpected(aggregate(errors));
  }
  return {};
}

} // namespace opm::index::detail
