#include "bundle/package_dir.hpp"

#include "bundle/csv.hpp"
#include "bundle/document.hpp"
#include "json/value.hpp"
#include "json/writer.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace opm::bundle {

namespace {

// upstream registry.ReadCSVFromBundleDirectory: the one CSV among the files of `dir`.
Result<Csv> read_bundle_csv(const std::filesystem::path& dir) {
  auto entries = util::sorted_entries(dir);
  if (!entries) {
    return util::fail(Errc::io, fmt::format("error reading bundle directory {}, {}", dir.string(),
                                            entries.error().message()));
  }
  std::optional<Csv> found;
  for (const auto& entry : *entries) {
    if (entry.is_dir) {
      continue;
    }
    auto content = util::read_regular(dir / entry.name);
    if (!content) {
      continue;
    }
    auto doc = read_first_document(*content);
    if (!doc || !doc->value.is_object() ||
        doc->value.value("kind", Json()) != "ClusterServiceVersion") {
      continue;
    }
    if (found) {
      return util::fail(Errc::invalid, "more than one ClusterServiceVersion is found in bundle");
    }
    found = OPM_TRY(csv_from_object(doc->value, json::to_text(doc->value)));
  }
  if (!found) {
    return util::fail(Errc::invalid,
                      fmt::format("no ClusterServiceVersion object found in {}", dir.string()));
  }
  return std::move(*found);
}

std::string string_of(const Json& object, std::string_view key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

struct PackageManifest {
  std::string name;
  std::string default_channel;
  std::map<std::string, std::string> channel_heads; // channel -> currentCSV
};

Result<PackageManifest> decode_package_manifest(std::string_view content) {
  auto doc = read_first_document(content);
  if (!doc) {
    return util::fail(Errc::invalid,
                      "could not decode contents into package manifest - " + doc.error().message());
  }
  PackageManifest out;
  const Json& v = doc->value;
  if (v.is_object()) {
    if (auto it = v.find("packageName"); it != v.end() && it->is_string()) {
      out.name = it->get<std::string>();
    }
    if (auto it = v.find("defaultChannel"); it != v.end() && it->is_string()) {
      out.default_channel = it->get<std::string>();
    }
    if (auto it = v.find("channels"); it != v.end() && it->is_array()) {
      for (const auto& ch : *it) {
        if (ch.is_object()) {
          out.channel_heads[string_of(ch, "name")] = string_of(ch, "currentCSV");
        }
      }
      if (out.default_channel.empty() && it->size() == 1 && out.channel_heads.size() == 1) {
        out.default_channel = out.channel_heads.begin()->first;
      }
    }
  }
  if (out.name.empty()) {
    return util::fail(Errc::invalid, "name of package (packageName) is missing");
  }
  return out;
}

// upstream parsePackageYAMLFile: the first file of `dir` that is a package manifest.
Result<PackageManifest> read_package_manifest(const std::filesystem::path& dir) {
  auto entries = OPM_TRY(util::sorted_entries(dir));
  std::vector<std::string> errors;
  for (const auto& entry : entries) {
    if (entry.is_dir) {
      continue;
    }
    std::string path = (dir / entry.name).string();
    auto content = util::read_regular(path);
    if (!content) {
      errors.push_back(fmt::format("error opening {} file, {}", path, content.error().message()));
      continue;
    }
    auto manifest = decode_package_manifest(*content);
    if (!manifest) {
      errors.push_back(fmt::format("error parsing {} as package.yaml file, {}", path,
                                   manifest.error().message()));
      continue;
    }
    return manifest;
  }
  std::string joined = errors.size() == 1 ? errors.front() : "";
  if (errors.size() > 1) {
    joined = "[" + util::join(errors, ", ") + "]";
  }
  return util::fail(
      Errc::invalid,
      fmt::format("valid PackageManifest YAML file not found in {}, {}", dir.string(), joined));
}

// Upstream joins these with ", " rather than ": ".
std::unexpected<Error> after(std::string_view doing, Error&& e) {
  return util::fail(e.code(), fmt::format("{}, {}", doing, e.message()));
}

using ReplacesMap = std::map<std::string, std::vector<std::string>>;

// Each sibling bundle's CSV name -> the CSVs it skips and replaces (best effort, as upstream).
Result<ReplacesMap> read_sibling_replaces(const std::filesystem::path& package_dir) {
  auto entries = util::sorted_entries(package_dir);
  if (!entries) {
    return util::fail(Errc::io, fmt::format("error reading from {} directory, {}",
                                            package_dir.string(), entries.error().message()));
  }
  ReplacesMap map;
  for (const auto& entry : *entries) {
    if (!entry.is_dir) {
      continue;
    }
    auto csv = OPM_TRY(read_bundle_csv(package_dir / entry.name));
    std::vector<std::string> replaces;
    if (auto skips = csv_skips(csv)) {
      replaces = std::move(*skips);
    }
    if (auto r = csv_replaces(csv); r && !r->empty()) {
      replaces.push_back(std::move(*r));
    }
    map[csv.name] = std::move(replaces);
  }
  return map;
}

// Whether `csv` is reached from `head` through replaces and skips (the head included).
bool in_channel(const ReplacesMap& map, const std::string& head, const std::string& csv) {
  std::set<std::string> seen{head};
  std::vector<std::string> pending{head};
  while (!pending.empty()) {
    std::string name = std::move(pending.back());
    pending.pop_back();
    if (name == csv) {
      return true;
    }
    auto it = map.find(name);
    if (it == map.end()) {
      continue;
    }
    for (const auto& next : it->second) {
      if (seen.insert(next).second) {
        pending.push_back(next);
      }
    }
  }
  return false;
}

} // namespace

Result<PackagePlacement> place_in_package(const std::filesystem::path& bundle_dir) {
  auto csv = read_bundle_csv(bundle_dir);
  if (!csv) {
    return after("error loading CSV from bundle directory", std::move(csv).error());
  }
  std::filesystem::path package_dir = bundle_dir.parent_path();
  auto replaces = read_sibling_replaces(package_dir);
  if (!replaces) {
    return after("error getting CSVs from bundles in the package directory",
                 std::move(replaces).error());
  }
  auto manifest = read_package_manifest(package_dir);
  if (!manifest) {
    return after("error parsing package.yaml file in the package root directory",
                 std::move(manifest).error());
  }
  PackagePlacement placement{manifest->name, {}, manifest->default_channel};
  for (const auto& [channel, head] : manifest->channel_heads) {
    if (in_channel(*replaces, head, csv->name)) {
      placement.channels.push_back(channel);
    }
  }
  return placement;
}

} // namespace opm::bundle
