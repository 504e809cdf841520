#include "sqlite/package_read.hpp"

#include "sqlite/connection.hpp"

#include <algorithm>
#include <map>

namespace opm::sqlite {

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

Result<bool> bundle_deprecated(Connection& db, const std::string& name) {
  auto stmt = OPM_TRY(db.prepare("SELECT * FROM deprecated WHERE operatorbundle_name = ?"));
  stmt.bind(1, name);
  return stmt.step();
}

Result<std::vector<std::string>> package_names(Connection& db) {
  auto stmt = OPM_TRY(db.prepare("SELECT DISTINCT name FROM package"));
  std::vector<std::string> out;
  while (OPM_TRY(stmt.step())) {
    if (auto name = stmt.text(0)) {
      out.push_back(std::move(*name));
    }
  }
  return out;
}

Result<std::vector<std::string>> package_channels(Connection& db, const std::string& package) {
  auto stmt = OPM_TRY(db.prepare("SELECT DISTINCT name FROM channel WHERE package_name = ?"));
  stmt.bind(1, package);
  std::vector<std::string> out;
  while (OPM_TRY(stmt.step())) {
    out.push_back(stmt.text_or_empty(0));
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> channel_heads(Connection& db,
                                                                       const std::string& package) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT DISTINCT name, head_operatorbundle_name FROM channel WHERE package_name=?"));
  stmt.bind(1, package);
  std::vector<std::pair<std::string, std::string>> out;
  while (OPM_TRY(stmt.step())) {
    out.emplace_back(stmt.text_or_empty(0), stmt.text_or_empty(1));
  }
  return out;
}

Result<std::optional<std::string>> default_channel(Connection& db, const std::string& package) {
  auto stmt = OPM_TRY(db.prepare("SELECT default_channel FROM package WHERE name = ? LIMIT 1"));
  stmt.bind(1, package);
  if (!OPM_TRY(stmt.step())) {
    return std::nullopt;
  }
  return stmt.text(0);
}

Result<bool> channel_has_bundle(Connection& db, const std::string& package,
                                const std::string& channel, const std::string& bundle) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT 1 FROM operatorbundle INNER JOIN channel_entry ON "
      "operatorbundle.name=channel_entry.operatorbundle_name WHERE channel_entry.package_name=? "
      "AND channel_entry.channel_name=? AND operatorbundle_name=? LIMIT 1"));
  stmt.bind(1, package).bind(2, channel).bind(3, bundle);
  return stmt.step();
}

Result<bool> replaced_in_channel(Connection& db, const std::string& package,
                                 const std::string& channel, const std::string& bundle) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT DISTINCT replaces.entry_id FROM channel_entry LEFT OUTER JOIN channel_entry "
      "replaces ON replaces.replaces = channel_entry.entry_id INNER JOIN operatorbundle ON "
      "replaces.operatorbundle_name = operatorbundle.name WHERE channel_entry.operatorbundle_name "
      "= ? AND channel_entry.package_name = ? AND channel_entry.channel_name = ? LIMIT 1"));
  stmt.bind(1, bundle).bind(2, package).bind(3, channel);
  return stmt.step();
}

Result<std::optional<std::vector<std::string>>> package_bundle_paths(Connection& db,
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

Result<std::vector<BundleImage>> package_bundle_images(Connection& db, const std::string& package) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT DISTINCT name, bundlepath, version FROM operatorbundle INNER JOIN channel_entry "
      "ON operatorbundle.name=channel_entry.operatorbundle_name WHERE "
      "channel_entry.package_name=?"));
  stmt.bind(1, package);
  std::vector<BundleImage> out;
  while (OPM_TRY(stmt.step())) {
    out.push_back({stmt.text_or_empty(0), stmt.text_or_empty(1), stmt.text_or_empty(2)});
  }
  return out;
}

Result<std::optional<std::string>> bundle_image(Connection& db, const std::string& bundle) {
  auto stmt = OPM_TRY(
      db.prepare("SELECT bundlepath FROM operatorbundle WHERE operatorbundle.name=? LIMIT 1"));
  stmt.bind(1, bundle);
  if (!OPM_TRY(stmt.step())) {
    return std::nullopt;
  }
  return std::optional(stmt.text_or_empty(0));
}

Result<std::set<std::string>> served_bundle_images(Connection& db) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT DISTINCT operatorbundle.bundlepath FROM operatorbundle INNER JOIN channel_entry ON "
      "operatorbundle.name = channel_entry.operatorbundle_name"));
  std::set<std::string> out;
  while (OPM_TRY(stmt.step())) {
    out.insert(stmt.text_or_empty(0));
  }
  return out;
}

} // namespace opm::sqlite
