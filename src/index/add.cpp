#include "index/add.hpp"

#include "bundle/apis.hpp"
#include "bundle/bundle.hpp"
#include "bundle/csv.hpp"
#include "index/database_copy.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/load.hpp"
#include "sqlite/migrations.hpp"
#include "util/fs.hpp"
#include "util/owned_temp.hpp"
#include "util/parallel.hpp"
#include "util/semver.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sys/stat.h>

namespace opm::index {

namespace {

namespace fs = std::filesystem;

// A file or directory removed when this goes away (unless released).
class Scratch {
public:
  explicit Scratch(fs::path p) : m_path(std::move(p)) {}
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (!m_path.empty()) {
      std::error_code ec;
      fs::remove_all(m_path, ec);
    }
  }
  [[nodiscard]] const fs::path& path() const { return m_path; }
  void release() { m_path.clear(); }

private:
  fs::path m_path;
};

// A new directory ./bundle_tmp<decimal uint32> in the current directory, named as Go's
// os.MkdirTemp("./", "bundle_tmp") names upstream's: the name shows in the per-bundle log lines.
// An owner marker beside it lets a later run remove it if this process is killed.
Result<fs::path> make_bundle_dir() {
  thread_local std::mt19937 random{std::random_device{}()};
  for (int attempt = 0; attempt < 10000; ++attempt) {
    fs::path dir = "./bundle_tmp" + std::to_string(static_cast<std::uint32_t>(random()));
    if (::mkdir(dir.c_str(), 0700) == 0) {
      util::Fd marker(
          ::open(util::owner_marker(dir).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
      return dir;
    }
    if (errno != EEXIST) {
      return util::fail(Errc::io,
                        fmt::format("mkdir {}: {}", dir.string(), util::errno_text(errno)));
    }
  }
  return util::fail(Errc::io, "mkdir ./bundle_tmp: too many existing directories");
}

struct Input {
  std::string image;
  std::string dir; // where it was unpacked, for the log lines
  bool dependencies_file = false;
  bool properties_file = false;
  std::string package;
  std::vector<std::string> channels;
  std::string default_channel;
  sqlite::NewBundle row;
};

Result<Input> to_input(const std::string& ref, bundle::Parsed parsed) {
  Input in;
  in.image = ref;
  in.dependencies_file = parsed.dependencies_file;
  in.properties_file = parsed.properties_file;
  in.package = parsed.package;
  in.channels = parsed.channels;
  in.default_channel = parsed.default_channel;
  auto& row = in.row;
  row.name = parsed.name;
  row.image = ref;
  row.version = OPM_TRY(bundle::csv_version(parsed.csv));
  row.skip_range = bundle::csv_skip_range(parsed.csv);
  row.replaces = OPM_TRY(bundle::csv_replaces(parsed.csv));
  row.skips = OPM_TRY(bundle::csv_skips(parsed.csv));
  row.substitutes_for = bundle::csv_substitutes_for(parsed.csv);
  row.csv_json = parsed.object_json.at(parsed.csv_index);
  row.object_json = std::move(parsed.object_json);
  if (!ref.empty()) {
    row.images.insert(ref);
  }
  for (const auto& image : OPM_TRY(bundle::csv_operator_images(parsed.csv))) {
    row.images.insert(image);
  }
  for (const auto& ri : OPM_TRY(bundle::csv_related_images(parsed.csv))) {
    row.images.insert(ri.image);
  }
  for (const auto& d : parsed.dependencies) {
    row.dependencies.push_back({d.type, d.value});
  }
  for (const auto& p : parsed.properties) {
    row.properties.insert({p.type, sqlite::marshal_raw(p.value)});
  }
  for (const auto& api : parsed.provided) {
    row.provided.insert({api.group, api.version, api.kind, api.plural});
  }
  for (const auto& api : OPM_TRY(bundle::required_apis(parsed.csv))) {
    row.required.insert({api.group, api.version, api.kind, api.plural});
  }
  return in;
}

Result<Input> load_bundle(const std::string& ref, const Unpack& unpack) {
  Scratch dir(OPM_TRY(make_bundle_dir()));
  Scratch marker(util::owner_marker(dir.path()));
  OPM_TRY(unpack(ref, dir.path()));
  auto in = OPM_TRY(to_input(ref, OPM_TRY(bundle::parse_dir(dir.path()))));
  in.dir = dir.path().string();
  return in;
}

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

// An error whose code is that of the first element carrying exit code 2 or 3, as upstream
// picks the exit status from its aggregate.
Error aggregate(const std::vector<Error>& errors) {
  Errc code = Errc::invalid;
  for (const auto& e : errors) {
    if (e.code() == Errc::bundle_exists || e.code() == Errc::version_exists) {
      code = e.code();
      break;
    }
  }
  // Repeated messages are shown once, as Go's aggregate prints them.
  std::vector<std::string> unique;
  for (const auto& e : errors) {
    if (std::find(unique.begin(), unique.end(), e.message()) == unique.end()) {
      unique.push_back(e.message());
    }
  }
  if (unique.size() == 1) {
    return Error(code, unique.front());
  }
  std::string text = "[";
  for (std::size_t i = 0; i < unique.size(); ++i) {
    text += (i == 0 ? "" : ", ") + unique[i];
  }
  return Error(code, text + "]");
}

Result<std::vector<std::string>> package_channels(sqlite::Connection& db,
                                                  const std::string& package) {
  auto stmt = OPM_TRY(db.prepare("SELECT DISTINCT name FROM channel WHERE package_name = ?"));
  stmt.bind(1, package);
  std::vector<std::string> out;
  while (OPM_TRY(stmt.step())) {
    out.push_back(stmt.text_or_empty(0));
  }
  return out;
}

Result<bool> in_channel(sqlite::Connection& db, const std::string& package,
                        const std::string& channel, const std::string& name) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT 1 FROM operatorbundle INNER JOIN channel_entry ON "
      "operatorbundle.name=channel_entry.operatorbundle_name WHERE channel_entry.package_name=? "
      "AND channel_entry.channel_name=? AND operatorbundle_name=? LIMIT 1"));
  stmt.bind(1, package).bind(2, channel).bind(3, name);
  return stmt.step();
}

// Bundle images already stored for a package; nullopt when one is empty (upstream then
// skips every check).
Result<std::optional<std::vector<std::string>>> package_paths(sqlite::Connection& db,
                                                              const std::string& package) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT DISTINCT operatorbundle.bundlepath FROM operatorbundle INNER JOIN channel_entry ON "
      "operatorbundle.name=channel_entry.operatorbundle_name WHERE channel_entry.package_name=?"));
  stmt.bind(1, package);
  std::vector<std::string> out;
  while (OPM_TRY(stmt.step())) {
    auto path = stmt.text_or_empty(0);
    if (path.empty()) {
      return std::nullopt;
    }
    out.push_back(std::move(path));
  }
  return std::optional(std::move(out));
}

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
  auto packages = OPM_TRY(db.prepare("SELECT DISTINCT name FROM package"));
  while (OPM_TRY(packages.step())) {
    auto package = packages.text_or_empty(0);
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

Result<bool> replaced_in_channel(sqlite::Connection& db, const std::string& package,
                                 const std::string& channel, const std::string& name) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT DISTINCT replaces.entry_id FROM channel_entry LEFT OUTER JOIN channel_entry "
      "replaces ON replaces.replaces = channel_entry.entry_id INNER JOIN operatorbundle ON "
      "replaces.operatorbundle_name = operatorbundle.name WHERE channel_entry.operatorbundle_name "
      "= ? AND channel_entry.package_name = ? AND channel_entry.channel_name = ? LIMIT 1"));
  stmt.bind(1, name).bind(2, package).bind(3, channel);
  return stmt.step();
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
    auto paths = OPM_TRY(package_paths(db, in.package));
    if (!paths) {
      return {};
    }
    for (const auto& path : *paths) {
      if (images.contains(path)) {
        errors.emplace_back(Errc::bundle_exists, fmt::format("Bundle {} already exists", in.image));
      }
    }
    bool valid_overwrite = false;
    for (const auto& channel : OPM_TRY(package_channels(db, in.package))) {
      if (!OPM_TRY(in_channel(db, in.package, channel, in.row.name))) {
        continue;
      }
      if (!overwrite) {
        errors.emplace_back(Errc::version_exists,
                            "Bundle already added that provides package and csv");
        break;
      }
      if (!OPM_TRY(replaced_in_channel(db, in.package, channel, in.row.name))) {
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
  auto stmt = OPM_TRY(
      db.prepare("SELECT bundlepath FROM operatorbundle WHERE operatorbundle.name=? LIMIT 1"));
  for (const auto& in : inputs) {
    stmt.reset();
    stmt.bind(1, in.row.name);
    if (!OPM_TRY(stmt.step())) {
      continue;
    }
    if (stmt.text_or_empty(0).empty()) {
      return util::fail(Errc::invalid,
                        "index add --overwrite-latest is only supported when using bundle images");
    }
    out[in.package].push_back(in.row.name);
  }
  return out;
}

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

using ChannelGraph = sqlite::GraphChannel;

// Upstream's graph loader: nodes are the entries naming stored bundles, edges their replaces
// (synthetic skip entries included); the head is the one node nothing replaces.
Result<std::map<std::string, ChannelGraph>> load_graph(sqlite::Connection& db,
                                                       const std::string& package) {
  auto entries = OPM_TRY(sqlite::package_entries(db, package));
  auto existing = OPM_TRY(sqlite::package_bundle_keys(db, package));
  if (existing.empty()) {
    return util::fail(Errc::not_found, "package not in database");
  }
  std::map<std::string, ChannelGraph> graphs;
  std::map<std::string, std::set<sqlite::BundleKey>> candidates;
  for (const auto& e : entries) {
    if (!existing.contains(e.bundle)) {
      continue;
    }
    graphs[e.channel].nodes[e.bundle];
    candidates[e.channel].insert(e.bundle);
  }
  for (const auto& e : entries) {
    if (!e.replaces.name.empty() || !e.replaces.version.empty() || !e.replaces.path.empty()) {
      graphs[e.channel].nodes[e.bundle].insert(e.replaces);
    }
    candidates[e.channel].erase(e.replaces);
  }
  for (const auto& [channel, heads] : candidates) {
    if (heads.empty()) {
      return util::fail(Errc::invalid, "no channel head found for " + channel);
    }
    if (heads.size() > 1) {
      return util::fail(Errc::invalid, "multiple candidate channel heads found for " + channel);
    }
    graphs[channel].head = *heads.begin();
  }
  return graphs;
}

// Every added bundle must be reachable from the head of each of its channels.
Result<void> check_reachable(sqlite::Connection& db, const std::vector<Input>& inputs) {
  std::vector<Error> errors;
  for (const auto& in : inputs) {
    auto graphs = load_graph(db, in.package);
    if (!graphs) {
      errors.emplace_back(Errc::invalid,
                          fmt::format("unable to verify added bundles for package {}: {}",
                                      in.package, graphs.error().message()));
      continue;
    }
    for (const auto& channel : in.channels) {
      const ChannelGraph& graph = (*graphs)[channel];
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

// The stored graph of a package (upstream's SQLGraphLoader.Generate); empty when the package
// or its default channel is missing.
Result<sqlite::PackageGraph> stored_graph(sqlite::Connection& db, const std::string& package) {
  sqlite::PackageGraph graph{package, "", {}};
  auto def = OPM_TRY(db.prepare("SELECT default_channel FROM package WHERE package.name=?"));
  def.bind(1, package);
  if (!OPM_TRY(def.step()) || def.is_null(0)) {
    return graph;
  }
  graph.default_channel = def.text_or_empty(0);
  graph.channels = OPM_TRY(load_graph(db, package));
  return graph;
}

// The annotations' default channel, else the only or first channel.
std::string select_default_channel(const Input& in) {
  if (!in.default_channel.empty()) {
    return in.default_channel;
  }
  if (in.channels.empty()) {
    return {};
  }
  return *std::min_element(in.channels.begin(), in.channels.end());
}

// Upstream's BundleGraphLoader.AddBundleToGraph.
Result<void> add_to_graph(const Input& in, sqlite::PackageGraph& graph, bool skip_patch) {
  auto version = util::semver::parse(in.row.version);
  if (!version) {
    return util::fail(Errc::invalid, fmt::format("Bundle version {} is not valid", in.row.version));
  }
  sqlite::BundleKey key{in.image, version->to_string(), in.row.name};
  if (!in.default_channel.empty()) {
    graph.default_channel = in.default_channel;
  }
  if (graph.default_channel.empty()) {
    graph.default_channel = select_default_channel(in);
    if (graph.default_channel.empty()) {
      return util::fail(Errc::invalid, "Default channel is missing and can't be inferred");
    }
  }
  for (const auto& name : in.channels) {
    auto it = graph.channels.find(name);
    if (it == graph.channels.end()) {
      graph.channels[name] = sqlite::GraphChannel{key, {{key, {}}}};
      continue;
    }
    auto& channel = it->second;
    std::set<sqlite::BundleKey> replaces;
    std::optional<std::pair<sqlite::BundleKey, util::semver::Version>> lowest_ahead;
    std::optional<std::pair<sqlite::BundleKey, util::semver::Version>> greatest_behind;
    std::vector<sqlite::BundleKey> skip_patch_candidates;
    for (const auto& [node, _] : channel.nodes) {
      auto node_version = util::semver::parse(node.version);
      if (!node_version) {
        return util::fail(Errc::invalid,
                          fmt::format("Unable to parse existing bundle version stored in index {} "
                                      "{} {}",
                                      node.name, node.version, node.path));
      }
      int c = util::semver::compare(*node_version, *version);
      if (c == 0) {
        return util::fail(Errc::invalid,
                          fmt::format("Bundle version {} already added to index", in.row.version));
      }
      if (c > 0 && (!lowest_ahead || *node_version < lowest_ahead->second)) {
        lowest_ahead = {node, *node_version};
      }
      if (c < 0 && (!greatest_behind || *node_version > greatest_behind->second)) {
        greatest_behind = {node, *node_version};
      }
      if (skip_patch && node_version->major == version->major &&
          node_version->minor == version->minor && *version > *node_version) {
        skip_patch_candidates.push_back(node);
        replaces.insert(node);
      }
    }
    if (greatest_behind) {
      replaces.insert(greatest_behind->first);
    }
    if (lowest_ahead) {
      channel.nodes[lowest_ahead->first] = {key};
    } else {
      channel.head = key;
    }
    for (const auto& candidate : skip_patch_candidates) {
      channel.nodes.erase(candidate);
    }
    channel.nodes[key] = std::move(replaces);
  }
  return {};
}

Result<void> load_semver(sqlite::Connection& db, const std::vector<Input>& inputs, bool skip_patch,
                         bool enable_alpha) {
  for (const auto& in : inputs) {
    auto graph = OPM_TRY(stored_graph(db, in.package));
    OPM_TRY(add_to_graph(in, graph, skip_patch));
    auto loaded = sqlite::add_bundle(db, in.row, enable_alpha);
    if (loaded) {
      loaded = sqlite::write_graph(db, graph);
    }
    if (!loaded) {
      return util::fail(Errc::invalid, fmt::format("error loading bundle {} into db: {}",
                                                   in.row.name, loaded.error().message()));
    }
  }
  if (auto cleared = sqlite::clear_non_head_bundles(db); !cleared) {
    return util::fail(Errc::invalid,
                      "Error deleting previous bundles: " + cleared.error().message());
  }
  return {};
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
    return std::unexpected(aggregate(errors));
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
    // The copy is private until commit() syncs and renames it: its per-bundle transactions
    // need neither a journal file nor a sync each, and holding its lock for the whole run
    // spares every statement the locking and journal checks of a shared database.
    OPM_TRY(db.exec("PRAGMA journal_mode = MEMORY"));
    OPM_TRY(db.exec("PRAGMA synchronous = OFF"));
    OPM_TRY(db.exec("PRAGMA locking_mode = EXCLUSIVE"));
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
