#include "sqlite/load.hpp"

#include "json/go_json.hpp"
#include "json/text.hpp"
#include "json/value.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/substitutes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace opm::sqlite {

namespace {

std::optional<std::string> null_if_empty(const std::string& s) {
  return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    out += (i == 0 ? "" : std::string(sep)) + parts[i];
  }
  return out;
}

std::string gvk_value(const ApiRow& api) {
  return json::marshal(Json{{"group", api.group}, {"kind", api.kind}, {"version", api.version}});
}

Result<bool> is_deprecated(Connection& db, const std::string& name) {
  auto stmt = OPM_TRY(db.prepare("SELECT * FROM deprecated WHERE operatorbundle_name = ?"));
  stmt.bind(1, name);
  return stmt.step();
}

Result<void> wrap(Result<void> r, std::string_view doing) {
  if (!r) {
    return std::unexpected(std::move(r).error().wrap(doing));
  }
  return {};
}

Result<void> insert_bundle_row(Connection& db, const NewBundle& b) {
  auto stmt = OPM_TRY(db.prepare(
      "insert into operatorbundle(name, csv, bundle, bundlepath, version, skiprange, replaces, "
      "skips, substitutesfor) values(?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  std::string objects;
  for (const auto& o : b.object_json) {
    objects += o;
    objects += '\n';
  }
  stmt.bind(1, b.name)
      .bind_blob(2, b.csv_json + "\n")
      .bind_blob(3, objects)
      .bind(4, b.image)
      .bind(5, b.version)
      .bind(6, b.skip_range)
      .bind(7, b.replaces)
      .bind(8, join(b.skips, ","))
      .bind(9, b.substitutes_for);
  return wrap(stmt.run(), fmt::format("failed to add bundle \"{}\"", b.name));
}

Result<void> insert_images(Connection& db, const NewBundle& b) {
  auto stmt =
      OPM_TRY(db.prepare("insert into related_image(image, operatorbundle_name) values(?,?)"));
  for (const auto& image : b.images) {
    stmt.reset();
    stmt.bind(1, image).bind(2, b.name);
    OPM_TRY(wrap(stmt.run(), fmt::format("failed to add related images \"{}\" for bundle \"{}\"",
                                         image, b.name)));
  }
  return {};
}

// Upstream hands SQLite a dependency's value as []byte (a json.RawMessage, or the JSON it
// marshals for a CSV's required APIs), so dependencies keep their values as BLOBs; every
// other typed value is a string.
enum class ValueStorage { text, blob };

Result<void> insert_typed(Connection& db, std::string_view table, const NewBundle& b,
                          const std::vector<TypedValue>& rows, ValueStorage storage) {
  auto stmt = OPM_TRY(db.prepare(
      fmt::format("insert into {}(type, value, operatorbundle_name, operatorbundle_version, "
                  "operatorbundle_path) values(?, ?, ?, ?, ?)",
                  table)));
  for (const auto& row : rows) {
    stmt.reset();
    stmt.bind(1, row.type);
    if (storage == ValueStorage::blob) {
      stmt.bind_blob(2, row.value);
    } else {
      stmt.bind(2, row.value);
    }
    stmt.bind(3, b.name)
        .bind_optional(4, null_if_empty(b.version))
        .bind_optional(5, null_if_empty(b.image));
    OPM_TRY(stmt.run());
  }
  return {};
}

Result<void> insert_dependencies(Connection& db, const NewBundle& b) {
  std::vector<TypedValue> rows = b.dependencies;
  for (const auto& api : b.required) {
    rows.push_back({"olm.gvk", gvk_value(api)});
  }
  return insert_typed(db, "dependencies", b, rows, ValueStorage::blob);
}

Result<void> insert_properties(Connection& db, const NewBundle& b) {
  std::set<TypedValue> set = b.properties;
  for (const auto& api : b.provided) {
    set.insert({"olm.gvk", gvk_value(api)});
  }
  if (OPM_TRY(is_deprecated(db, b.name))) {
    set.insert({"olm.deprecated", "{}"});
  }
  return insert_typed(db, "properties", b, {set.begin(), set.end()}, ValueStorage::text);
}

Result<void> insert_apis(Connection& db, const NewBundle& b) {
  auto api = OPM_TRY(db.prepare(
      "insert or ignore into api(group_name, version, kind, plural) values(?, ?, ?, ?)"));
  for (auto [table, set] :
       {std::pair{"api_provider", &b.provided}, std::pair{"api_requirer", &b.required}}) {
    auto link = OPM_TRY(db.prepare(
        fmt::format("insert into {}(group_name, version, kind, operatorbundle_name, "
                    "operatorbundle_version, operatorbundle_path) values(?, ?, ?, ?, ?, ?)",
                    table)));
    for (const auto& a : *set) {
      api.reset();
      api.bind(1, a.group).bind(2, a.version).bind(3, a.kind).bind(4, a.plural);
      OPM_TRY(api.run());
      link.reset();
      link.bind(1, a.group)
          .bind(2, a.version)
          .bind(3, a.kind)
          .bind(4, b.name)
          .bind_optional(5, null_if_empty(b.version))
          .bind_optional(6, null_if_empty(b.image));
      OPM_TRY(link.run());
    }
  }
  return {};
}

struct Walker {
  Connection& db;
  const PackageManifest& manifest;
  std::vector<std::string>& errors;
  Statement add_entry;
  Statement set_replaces;

  struct BundleLinks {
    std::string replaces;
    std::vector<std::string> skips;
    std::string version;
    std::string path;
  };

  Result<std::optional<BundleLinks>> links(const std::string& name) {
    auto stmt =
        OPM_TRY(db.prepare("SELECT replaces, skips, version, bundlepath FROM operatorbundle WHERE "
                           "operatorbundle.name=? LIMIT 1"));
    stmt.bind(1, name);
    if (!OPM_TRY(stmt.step())) {
      return std::nullopt;
    }
    BundleLinks l;
    l.replaces = stmt.text_or_empty(0);
    if (auto skips = stmt.text_or_empty(1); !skips.empty()) {
      std::size_t start = 0;
      while (true) {
        auto comma = skips.find(',', start);
        l.skips.push_back(skips.substr(start, comma - start));
        if (comma == std::string::npos) {
          break;
        }
        start = comma + 1;
      }
    }
    l.version = stmt.text_or_empty(2);
    l.path = stmt.text_or_empty(3);
    return std::optional<BundleLinks>(std::move(l));
  }

  Result<std::int64_t> entry(const std::string& channel, const std::string& bundle, int depth) {
    add_entry.reset();
    add_entry.bind(1, channel).bind(2, manifest.package).bind(3, bundle).bind(4, depth);
    OPM_TRY(add_entry.run());
    return db.last_insert_rowid();
  }

  Result<void> link(std::int64_t from, std::int64_t to) {
    set_replaces.reset();
    set_replaces.bind(1, to).bind(2, from);
    return set_replaces.run();
  }

  Result<void> package_property(const std::string& name, const BundleLinks& l) {
    auto stmt = OPM_TRY(db.prepare(
        "insert into properties(type, value, operatorbundle_name, operatorbundle_version, "
        "operatorbundle_path) values(?, ?, ?, ?, ?)"));
    stmt.bind(1, std::string_view("olm.package"))
        .bind(2, json::marshal(Json{{"packageName", manifest.package}, {"version", l.version}}))
        .bind(3, name)
        .bind_optional(4, null_if_empty(l.version))
        .bind_optional(5, null_if_empty(l.path));
    return stmt.run();
  }

  // Walk one channel from its head; graph problems are recorded, SQL failures returned.
  Result<void> walk(const ChannelHead& c) {
    std::int64_t current = OPM_TRY(entry(c.channel, c.head, 0));
    std::string name = c.head;
    int depth = 1;
    std::set<std::string> visited{name};
    while (true) {
      auto l = OPM_TRY(links(name));
      if (!l) {
        errors.push_back("no bundle found for bundlename " + name);
        return {};
      }
      OPM_TRY(package_property(name, *l));
      if (OPM_TRY(is_deprecated(db, name))) {
        return {};
      }
      for (const auto& skip : l->skips) {
        auto skipped = OPM_TRY(entry(c.channel, skip, depth));
        auto synthesized = OPM_TRY(entry(c.channel, name, depth));
        OPM_TRY(link(synthesized, skipped));
        ++depth;
      }
      if (l->replaces.empty()) {
        return {};
      }
      auto replaced = OPM_TRY(entry(c.channel, l->replaces, depth));
      if (!visited.insert(l->replaces).second) {
        errors.push_back(fmt::format("Cycle detected, {} replaces {}", name, l->replaces));
        return {};
      }
      OPM_TRY(link(current, replaced));
      if (!OPM_TRY(links(l->replaces))) {
        errors.push_back(
            fmt::format("Invalid bundle {}, replaces nonexistent bundle {}", c.head, l->replaces));
        return {};
      }
      current = replaced;
      name = l->replaces;
      ++depth;
    }
  }
};

// Go's utilerrors.NewAggregate rendering: repeated messages once; one message as is, several
// as "[a, b]".
std::string aggregate(const std::vector<std::string>& errors) {
  std::vector<std::string> unique;
  for (const auto& e : errors) {
    if (std::find(unique.begin(), unique.end(), e) == unique.end()) {
      unique.push_back(e);
    }
  }
  if (unique.size() == 1) {
    return unique.front();
  }
  return "[" + join(unique, ", ") + "]";
}

Result<void> write_package(Connection& db, const PackageManifest& m) {
  for (const auto* sql :
       {"DELETE FROM package WHERE name = ?", "DELETE FROM channel WHERE package_name = ?",
        "DELETE FROM channel_entry WHERE package_name = ?"}) {
    auto stmt = OPM_TRY(db.prepare(sql));
    stmt.bind(1, m.package);
    OPM_TRY(stmt.run());
  }
  auto add_package = OPM_TRY(db.prepare("insert into package(name) values(?)"));
  add_package.bind(1, m.package);
  OPM_TRY(wrap(add_package.run(), fmt::format("failed to add package \"{}\"", m.package)));

  std::vector<std::string> errors;
  std::vector<ChannelHead> written;
  bool has_default = false;
  for (const auto& c : m.channels) {
    if (OPM_TRY(is_deprecated(db, c.head))) {
      continue;
    }
    auto add = OPM_TRY(db.prepare(
        "insert into channel(name, package_name, head_operatorbundle_name) values(?, ?, ?)"));
    add.bind(1, c.channel).bind(2, m.package).bind(3, c.head);
    if (auto done = add.run(); !done) {
      errors.push_back(fmt::format("failed to add channel \"{}\" in package \"{}\": {}", c.channel,
                                   m.package, done.error().message()));
      continue;
    }
    if (c.channel == m.default_channel || m.channels.size() == 1) {
      has_default = true;
      auto set = OPM_TRY(db.prepare("update package set default_channel = ? where name = ?"));
      set.bind(1, c.channel).bind(2, m.package);
      if (auto done = set.run(); !done) {
        errors.push_back(fmt::format("failed to add default channel \"{}\" in package \"{}\": {}",
                                     c.channel, m.package, done.error().message()));
        continue;
      }
    }
    written.push_back(c);
  }
  if (!has_default) {
    errors.push_back("no default channel specified for " + m.package);
  }
  Walker walker{db, m, errors,
                OPM_TRY(db.prepare("insert into channel_entry(channel_name, package_name, "
                                   "operatorbundle_name, depth) values(?, ?, ?, ?)")),
                OPM_TRY(db.prepare("update channel_entry set replaces = ? where entry_id = ?"))};
  for (const auto& c : written) {
    OPM_TRY(walker.walk(c));
  }
  if (!errors.empty()) {
    return util::fail(Errc::invalid, aggregate(errors));
  }
  return {};
}

} // namespace

std::string marshal_raw(std::string_view json_text) {
  std::string compact = json::text::compact(json_text);
  std::string out;
  out.reserve(compact.size());
  for (std::size_t i = 0; i < compact.size(); ++i) {
    char c = compact[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xe2' && i + 2 < compact.size() && compact[i + 1] == '\x80' &&
               (compact[i + 2] == '\xa8' || compact[i + 2] == '\xa9')) {
      out += compact[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

Result<void> add_bundle(Connection& db, const NewBundle& bundle, bool enable_alpha) {
  if (!bundle.substitutes_for.empty() && !enable_alpha) {
    return util::fail(Errc::invalid,
                      "SubstitutesFor is an alpha-only feature. You must enable alpha features "
                      "with the flag --enable-alpha in order to use this feature.");
  }
  auto tx = OPM_TRY(Transaction::begin(db));
  OPM_TRY(insert_bundle_row(db, bundle));
  OPM_TRY(insert_images(db, bundle));
  OPM_TRY(wrap(insert_dependencies(db, bundle), "failed to add dependencies "));
  OPM_TRY(wrap(insert_properties(db, bundle), "failed to add properties "));
  if (enable_alpha) {
    OPM_TRY(wrap(add_substitutes_for(db, bundle), "failed to add substitutes "));
  }
  OPM_TRY(insert_apis(db, bundle));
  return tx.commit();
}

Result<void> rebuild_package(Connection& db, const PackageManifest& manifest) {
  auto tx = OPM_TRY(Transaction::begin(db));
  OPM_TRY(write_package(db, manifest));
  return tx.commit();
}

Result<StoredPackage> stored_package(Connection& db, const std::string& package) {
  StoredPackage out;
  auto def = OPM_TRY(db.prepare("SELECT default_channel FROM package WHERE name = ?"));
  def.bind(1, package);
  if (OPM_TRY(def.step())) {
    out.default_channel = def.text_or_empty(0);
  }
  auto rows = OPM_TRY(
      db.prepare("SELECT DISTINCT channel_entry.operatorbundle_name, channel_entry.channel_name, "
                 "operatorbundle.version, operatorbundle.bundlepath FROM channel_entry INNER JOIN "
                 "operatorbundle ON operatorbundle.name = channel_entry.operatorbundle_name WHERE "
                 "channel_entry.package_name = ? ORDER BY channel_entry.entry_id"));
  rows.bind(1, package);
  std::map<std::string, std::size_t> index;
  while (OPM_TRY(rows.step())) {
    auto name = rows.text_or_empty(0);
    auto [it, fresh] = index.emplace(name, out.bundles.size());
    if (fresh) {
      out.bundles.push_back({name, rows.text_or_empty(2), rows.text_or_empty(3), {}});
    }
    auto& channels = out.bundles[it->second].channels;
    auto channel = rows.text_or_empty(1);
    if (std::find(channels.begin(), channels.end(), channel) == channels.end()) {
      channels.push_back(channel);
    }
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>>
packages_of_bundles(Connection& db, const std::set<std::string>& names) {
  std::vector<std::pair<std::string, std::string>> out;
  auto stmt = OPM_TRY(
      db.prepare("SELECT DISTINCT package_name FROM channel_entry WHERE operatorbundle_name = ?"));
  for (const auto& name : names) {
    stmt.reset();
    stmt.bind(1, name);
    while (OPM_TRY(stmt.step())) {
      out.emplace_back(name, stmt.text_or_empty(0));
    }
  }
  return out;
}

Result<std::vector<EntryEdge>> package_entries(Connection& db, const std::string& package) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT channel_entry.channel_name, channel_entry.operatorbundle_name, op_bundle.version, "
      "op_bundle.bundlepath, replaces.operatorbundle_name, replacesbundle.version, "
      "replacesbundle.bundlepath FROM channel_entry LEFT JOIN channel_entry replaces ON "
      "channel_entry.replaces = replaces.entry_id LEFT JOIN operatorbundle op_bundle ON "
      "channel_entry.operatorbundle_name = op_bundle.name LEFT JOIN operatorbundle "
      "replacesbundle ON replaces.operatorbundle_name = replacesbundle.name WHERE "
      "channel_entry.package_name = ?"));
  stmt.bind(1, package);
  std::vector<EntryEdge> out;
  while (OPM_TRY(stmt.step())) {
    out.push_back({stmt.text_or_empty(0),
                   {stmt.text_or_empty(3), stmt.text_or_empty(2), stmt.text_or_empty(1)},
                   {stmt.text_or_empty(6), stmt.text_or_empty(5), stmt.text_or_empty(4)}});
  }
  return out;
}

Result<std::set<BundleKey>> package_bundle_keys(Connection& db, const std::string& package) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT DISTINCT operatorbundle.bundlepath, operatorbundle.version, operatorbundle.name "
      "FROM operatorbundle INNER JOIN channel_entry ON "
      "operatorbundle.name=channel_entry.operatorbundle_name WHERE channel_entry.package_name=?"));
  stmt.bind(1, package);
  std::set<BundleKey> out;
  while (OPM_TRY(stmt.step())) {
    out.insert({stmt.text_or_empty(0), stmt.text_or_empty(1), stmt.text_or_empty(2)});
  }
  return out;
}

namespace {

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

  Result<void> walk(const std::string& channel_name, const GraphChannel& channel) {
    if (!run("delete from channel_entry where channel_name = ? and package_name = ?",
             {channel_name, graph.name},
             fmt::format("failed to delete channel entry for channel name ({}) and package ({})",
                         channel_name, graph.name))) {
      return util::fail(Errc::invalid, "stop");
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
        return {};
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
        return {};
      }
      if (!visited.insert(*next).second) {
        errors.push_back(fmt::format("Cycle detected, {} replaces {}", current.name, next->name));
        return {};
      }
      current = *next;
      previous = id;
      ++depth;
    }
  }
};

} // namespace

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
      if (!w.walk(name, channel)) {
        break;
      }
    }
    if (auto committed = tx.commit(); !committed) {
      errors.push_back(committed.error().message());
    }
  }
  if (!errors.empty()) {
    return util::fail(Errc::invalid, aggregate(errors));
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

Result<void> remove_overwritten_head(Connection& db, const std::string& package,
                                     const std::string& bundle) {
  auto tx = OPM_TRY(Transaction::begin(db));
  auto replacing = OPM_TRY(db.prepare(
      "SELECT DISTINCT operatorbundle.name AS replaces, channel_entry.channel_name FROM "
      "channel_entry LEFT OUTER JOIN channel_entry replaces ON replaces.replaces = "
      "channel_entry.entry_id INNER JOIN operatorbundle ON replaces.operatorbundle_name = "
      "operatorbundle.name WHERE channel_entry.package_name = ? AND "
      "channel_entry.operatorbundle_name = ? LIMIT 1"));
  replacing.bind(1, package).bind(2, bundle);
  if (OPM_TRY(replacing.step())) {
    return util::fail(Errc::invalid,
                      fmt::format("cannot overwrite bundle {} from package {}: replaced by {} on "
                                  "channel {}",
                                  bundle, package, replacing.text_or_empty(0),
                                  replacing.text_or_empty(1)));
  }
  auto replaced = OPM_TRY(db.prepare(
      "SELECT replaces.name as replaces, channel_entry.channel_name, min(depth) from "
      "channel_entry LEFT JOIN (SELECT entry_id, name FROM channel_entry INNER JOIN "
      "operatorbundle ON channel_entry.operatorbundle_name = operatorbundle.name) AS replaces "
      "ON channel_entry.replaces = replaces.entry_id WHERE channel_entry.package_name = ? AND "
      "channel_entry.operatorbundle_name = ? GROUP BY channel_name"));
  replaced.bind(1, package).bind(2, bundle);
  struct Update {
    std::optional<std::string> replaces;
    std::optional<std::string> channel;
  };
  std::vector<Update> updates;
  while (OPM_TRY(replaced.step())) {
    updates.push_back({replaced.text(0), replaced.text(1)});
  }
  for (const auto& u : updates) {
    if (!u.channel) {
      return util::fail(Errc::invalid,
                        fmt::format("channel name column corrupt for bundle {}", bundle));
    }
    if (u.replaces && !u.replaces->empty()) {
      auto set = OPM_TRY(db.prepare("UPDATE channel SET head_operatorbundle_name = ? WHERE "
                                    "package_name = ? AND name = ? AND "
                                    "head_operatorbundle_name = ?"));
      set.bind(1, *u.replaces).bind(2, package).bind(3, *u.channel).bind(4, bundle);
      OPM_TRY(set.run());
    } else {
      auto clear = OPM_TRY(db.prepare(
          "UPDATE channel SET head_operatorbundle_name = NULL WHERE name = ? AND package_name = "
          "? AND name IN (SELECT default_channel FROM package WHERE name = ?)"));
      clear.bind(1, *u.channel).bind(2, package).bind(3, package);
      OPM_TRY(clear.run());
    }
  }
  for (const auto* sql : {"DELETE FROM operatorbundle WHERE operatorbundle.name=?",
                          "DELETE FROM api_provider WHERE api_provider.operatorbundle_name=?",
                          "DELETE FROM api_requirer WHERE api_requirer.operatorbundle_name=?",
                          "DELETE FROM channel_entry WHERE channel_entry.operatorbundle_name=?",
                          "DELETE FROM deprecated WHERE deprecated.operatorbundle_name = ?"}) {
    auto stmt = OPM_TRY(db.prepare(sql));
    stmt.bind(1, bundle);
    OPM_TRY(stmt.run());
  }
  return tx.commit();
}

} // namespace opm::sqlite
