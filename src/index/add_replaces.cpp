#include "index/detail/add_checks.hpp"
#include "index/detail/add_modes.hpp"
#include "sqlite/bundle_insert.hpp"
#include "sqlite/package_read.hpp"
#include "sqlite/package_rebuild.hpp"
#include "util/semver.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>

namespace opm::index::detail {

namespace {

struct Candidate {
  std::string name;
  std::string version_text;
  util::semver::Version version;
  std::vector<std::string> channels;
  std::string default_channel;
};

struct Head {
  std::string name;
  util::semver::Version version;
  int count = 1;
};

// Go's %+v of the heads map, for the "unable to determine default channel" message.
std::string describe_heads(const std::map<std::string, Head>& heads) {
  std::string out = "map[";
  bool first = true;
  for (const auto& [channel, h] : heads) {
    auto list = [](const auto& items, auto&& text) {
      std::string s = "[";
      for (std::size_t i = 0; i < items.size(); ++i) {
        s += (i == 0 ? "" : " ") + text(items[i]);
      }
      return s + "]";
    };
    out += fmt::format(
        "{}{}:{{name:{} version:{{Major:{} Minor:{} Patch:{} Pre:{} Build:{}}} count:{}}}",
        first ? "" : " ", channel, h.name, h.version.major, h.version.minor, h.version.patch,
        list(h.version.pre, [](const util::semver::PreRelease& p) { return p.to_string(); }),
        list(h.version.build, [](const std::string& b) { return b; }), h.count);
    first = false;
  }
  return out + "]";
}

Result<sqlite::PackageManifest> package_manifest(const std::string& package,
                                                 const std::vector<Candidate>& bundles) {
  std::map<std::string, Head> heads;
  std::optional<Head> max;
  std::string default_channel;
  for (const auto& b : bundles) {
    Head current{b.name, b.version, 1};
    for (const auto& channel : b.channels) {
      auto it = heads.find(channel);
      if (it == heads.end()) {
        heads.emplace(channel, current);
        continue;
      }
      int c = OPM_TRY(util::semver::build_id_compare(current.version, it->second.version));
      if (c < 0) {
        continue;
      }
      if (c == 0) {
        current.count += it->second.count;
      }
      it->second = current;
    }
    int c = max ? OPM_TRY(util::semver::build_id_compare(current.version, max->version)) : 1;
    if (c < 0) {
      continue;
    }
    if (c == 0) {
      current.count += max->count;
    }
    max = current;
    if (!b.default_channel.empty()) {
      default_channel = b.default_channel;
    }
  }
  if (max && max->count > 1) {
    return util::fail(Errc::invalid, fmt::format("more than one bundle with maximum version {}",
                                                 max->version.to_string()));
  }
  sqlite::PackageManifest manifest{package, default_channel, {}};
  bool found = heads.size() == 1 && default_channel.empty();
  for (const auto& [channel, head] : heads) {
    if (head.count > 1) {
      return util::fail(Errc::invalid,
                        fmt::format("more than one potential channel head for {}", channel));
    }
    if (heads.size() == 1) {
      manifest.default_channel = channel;
    }
    found = found || channel == default_channel;
    manifest.channels.push_back({channel, head.name});
  }
  if (!found) {
    return util::fail(Errc::invalid, "unable to determine default channel among channel heads: " +
                                         describe_heads(heads));
  }
  return manifest;
}

Result<Candidate> candidate(std::string name, std::string version_text,
                            std::vector<std::string> channels, std::string default_channel) {
  std::string text = version_text.empty() ? "0.0.0-z" : version_text;
  auto version = util::semver::parse(text);
  if (!version) {
    return util::fail(Errc::invalid, fmt::format("error parsing bundle {} version {}: {}", name,
                                                 text, version.error().message()));
  }
  return Candidate{std::move(name), std::move(version_text), std::move(*version),
                   std::move(channels), std::move(default_channel)};
}

} // namespace

Result<void> load_packages(sqlite::Connection& db, const std::vector<Input>& inputs,
                           bool enable_alpha) {
  std::vector<Error> errors;
  std::map<std::string, std::vector<const Input*>> packages;
  for (const auto& in : inputs) {
    if (auto added = sqlite::add_bundle(db, in.row, enable_alpha); !added) {
      errors.push_back(std::move(added).error());
      continue;
    }
    packages[in.package].push_back(&in);
  }
  for (const auto& [package, added] : packages) {
    auto manifest = [&]() -> Result<sqlite::PackageManifest> {
      auto stored = OPM_TRY(sqlite::stored_package(db, package));
      std::set<std::string> fresh;
      for (const auto* in : added) {
        fresh.insert(in->row.name);
      }
      std::vector<Candidate> all;
      for (const auto& b : stored.bundles) {
        if (!fresh.contains(b.name)) {
          all.push_back(OPM_TRY(candidate(b.name, b.version, b.channels, stored.default_channel)));
        }
      }
      for (const auto* in : added) {
        all.push_back(
            OPM_TRY(candidate(in->row.name, in->row.version, in->channels, in->default_channel)));
      }
      return package_manifest(package, all);
    }();
    if (!manifest) {
      errors.push_back(std::move(manifest).error());
      continue;
    }
    if (auto rebuilt = sqlite::rebuild_package(db, *manifest); !rebuilt) {
      errors.push_back(std::move(rebuilt).error());
    }
  }
  if (!errors.empty()) {
    return std::unexpected(aggregate(errors));
  }
  return {};
}

} // namespace opm::index::detail
