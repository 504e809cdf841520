#include "sqlite/package_graph.hpp"

#include "sqlite/connection.hpp"
#include "util/go_errors.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace opm::sqlite {

namespace {

// How a channel's walk ended: the next channel is written, or nothing more is.
enum class Walked { channel_done, stop_writing };

struct GraphWriter {
  Connection& db;
  const PackageGraph& graph;
  std::vector<std::string>& errors;

  Result<std::optional<std::int64_t>> entry(const std::string& channel, const std::string& name,
                                            int depth) {
    auto stmt = OPM_TRY(db.prepare("insert into channel_entry(channel_name, package_name, "
                                   "operatorbundle_name, depth) values(?, ?, ?, ?)"));
    stmt.bind(1, channel).bind(2, graph.name).bind(3, name).bind(4, depth);
    if (auto done = stmt.run(); !done) {
      errors.push_back(
          fmt::format("failed to insert channel_entry for channel ({}) and bundle ({}): {}",
                      channel, name, done.error().message()));
      return std::nullopt;
    }
    return std::optional(db.last_insert_rowid());
  }

  Result<void> link(std::int64_t replaced, std::int64_t entry_id) {
    auto stmt = OPM_TRY(db.prepare("update channel_entry set replaces = ? where entry_id = ?"));
    stmt.bind(1, replaced).bind(2, entry_id);
    if (auto done = stmt.run(); !done) {
      errors.push_back(
          fmt::format("failed to update channel_entry to set replaces ({}) for entry ({}): {}",
                      replaced, entry_id, done.error().message()));
    }
    return {};
  }

  Result<void> run(const char* sql, std::initializer_list<std::string> values,
                   std::string failure) {
    auto stmt = OPM_TRY(db.prepare(sql));
    int i = 1;
    for (const auto& v : values) {
      stmt.bind(i++, v);
    }
    if (auto done = stmt.run(); !done) {
      errors.push_back(failure + ": " + done.error().message());
      return std::unexpected(std::move(done).error());
    }
    return {};
  }

  Result<Walked> walk(const std::string& channel_name, const GraphChannel& channel) {
    if (!run("delete from channel_entry where channel_name = ? and package_name = ?",
             {channel_name, graph.name},
             fmt::format("failed to delete channel entry for channel name ({}) and package ({})",
                         channel_name, graph.name))) {
      return Walked::stop_writing;
    }
    BundleKey current = channel.head;
    int depth = 0;
    std::optional<std::int64_t> previous;
    // A stored graph whose replaces loop back (a damaged or hand-made --from-index) would keep
    // this walk going forever; it ends with the replaces walk's text instead.
    std::set<BundleKey> visited{current};
    while (true) {
      auto id = OPM_TRY(entry(channel_name, current.name, depth));
      if (!id) {
        return Walked::channel_done;
      }
      if (previous) {
        OPM_TRY(link(*id, *previous));
      }
      std::optional<BundleKey> next;
      std::vector<BundleKey> synthetic;
      if (auto it = channel.nodes.find(current); it != channel.nodes.end()) {
        for (const auto& replaced : it->second) {
          if (channel.nodes.contains(replaced)) {
            next = replaced;
          } else {
            synthetic.push_back(replaced);
          }
        }
      }
      int synthetic_depth = depth + 1;
      for (const auto& skipped : synthetic) {
        auto skipped_id = OPM_TRY(entry(channel_name, skipped.name, synthetic_depth));
        auto node_id = OPM_TRY(entry(channel_name, current.name, synthetic_depth));
        if (!skipped_id || !node_id) {
          break;
        }
        OPM_TRY(link(*skipped_id, *node_id));
        ++synthetic_depth;
      }
      if (!next) {
        int expected = static_cast<int>(channel.nodes.size()) - 1;
        if (expected != depth) {
          errors.push_back(fmt::format("Invalid graph: some (non-bottom) nodes defined in the "
                                       "graph were not mentioned as replacements of any node "
                                       "({} != {})",
                                       expected, depth));
        }
        return Walked::channel_done;
      }
      if (!visited.insert(*next).second) {
        errors.push_back(fmt::format("Cycle detected, {} replaces {}", current.name, next->name));
        return Walked::channel_done;
      }
      current = *next;
      previous = id;
      ++depth;
    }
  }
};

} // namespace

Result<std::map<std::string, GraphChannel>> load_channel_graphs(Connection& db,
                                                                const std::string& package) {
  auto entries = OPM_TRY(package_entries(db, package));
  auto existing = OPM_TRY(package_bundle_keys(db, package));
  if (existing.empty()) {
    return util::fail(Errc::not_found, "package not in database");
  }
  std::map<std::string, GraphChannel> graphs;
  std::map<std::string, std::set<BundleKey>> candidates;
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

Result<PackageGraph> load_package_graph(Connection& db, const std::string& package) {
  PackageGraph graph{package, "", {}};
  auto def = OPM_TRY(default_channel(db, package));
  if (!def) {
    return graph;
  }
  graph.default_channel = std::move(*def);
  graph.channels = OPM_TRY(load_channel_graphs(db, package));
  return graph;
}

Result<void> write_graph(Connection& db, const PackageGraph& graph) {
  std::vector<std::string> errors;
  {
    auto tx = OPM_TRY(Transaction::begin(db));
    GraphWriter w{db, graph, errors};
    (void)w.run("insert or replace into package(name) values(?)", {graph.name},
                fmt::format("failed to insert or replace package ({})", graph.name));
    for (const auto& [name, channel] : graph.channels) {
      (void)w.run("insert or replace into channel(name, package_name, head_operatorbundle_name) "
                  "values(?, ?, ?)",
                  {name, graph.name, channel.head.name},
                  fmt::format("failed to insert or update channel ({}) for package ({}) with head "
                              "({})",
                              name, graph.name, channel.head.name));
    }
    if (!w.run("update package set default_channel = ? where name = ?",
               {graph.default_channel, graph.name},
               fmt::format("failed to set default channel ({}) for package ({})",
                           graph.default_channel, graph.name))) {
      errors.back() = fmt::format("the default channel ({}) does not exist: {}",
                                  graph.default_channel, errors.back());
    }
    for (const auto& [name, channel] : graph.channels) {
      auto walked = w.walk(name, channel);
      if (!walked) {
        errors.push_back(walked.error().message());
        break;
      }
      if (*walked == Walked::stop_writing) {
        break;
      }
    }
    if (auto committed = tx.commit(); !committed) {
      errors.push_back(committed.error().message());
    }
  }
  if (!errors.empty()) {
    return util::fail(Errc::invalid, util::aggregate_text(errors));
  }
  return {};
}

Result<void> clear_non_head_bundles(Connection& db) {
  auto tx = OPM_TRY(Transaction::begin(db));
  OPM_TRY(db.exec("update operatorbundle set bundle = null, csv = null where (bundlepath != null "
                  "or bundlepath != '') and name not in (select operatorbundle.name from "
                  "operatorbundle join channel on channel.head_operatorbundle_name = "
                  "operatorbundle.name)"));
  return tx.commit();
}

} // namespace opm::sqlite
