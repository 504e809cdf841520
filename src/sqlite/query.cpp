#include "sqlite/query.hpp"

#include "json/text.hpp"
#include "json/writer.hpp"
#include "sqlite/detail/query_parts.hpp"
#include "sqlite/detail/stored_json.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

namespace opm::sqlite {

namespace detail {

// The stored manifests: every object, and the first ClusterServiceVersion as csvJson.
Result<void> read_manifests(std::string_view bundle, BundleAnswer& out) {
  out.objects = OPM_TRY(detail::split_objects(bundle));
  for (const std::string& object : out.objects) {
    std::string kind = detail::string_member(object, {"kind"});
    if (kind.empty()) {
      return util::fail(Errc::invalid, fmt::format("Object 'Kind' is missing in '{}'", object));
    }
    if (kind == "ClusterServiceVersion") {
      out.csv_json = object;
      return {};
    }
  }
  return util::fail(Errc::invalid, "no csv in bundle");
}

// A GVK from a property or dependency value; nullopt when it is not a JSON object.
std::optional<Gvk> parse_gvk(std::string_view value) {
  auto parsed = json::text::parse(value);
  if (!parsed || !parsed->is_object()) {
    return std::nullopt;
  }
  Gvk gvk;
  for (auto [key, field] : {std::pair{"group", &Gvk::group}, std::pair{"version", &Gvk::version},
                            std::pair{"kind", &Gvk::kind}}) {
    auto it = parsed->find(key);
    if (it == parsed->end() || it->is_null()) {
      continue;
    }
    if (!it->is_string()) {
      return std::nullopt;
    }
    gvk.*field = it->get<std::string>();
  }
  return gvk;
}

} // namespace detail

namespace {

using detail::parse_gvk;
using detail::read_manifests;

constexpr std::string_view k_gvk_type = "olm.gvk";

constexpr std::string_view k_bundle_columns =
    "operatorbundle.name, operatorbundle.bundle, operatorbundle.bundlepath, "
    "operatorbundle.version, operatorbundle.skiprange";

// The GVK property value upstream looks for: Go's json.Marshal of a map, keys sorted.
std::string gvk_value(std::string_view group, std::string_view version, std::string_view kind) {
  Json value = Json::object();
  value["group"] = std::string(group);
  value["version"] = std::string(version);
  value["kind"] = std::string(kind);
  return json::to_text(value, {.escape_html = true});
}

// Prepares `sql` and binds every argument as text, in order.
Result<Statement> query(Connection& db, std::string_view sql,
                        std::initializer_list<std::string_view> args = {}) {
  Statement stmt = OPM_TRY(db.prepare(sql));
  int index = 1;
  for (std::string_view arg : args) {
    stmt.bind(index++, arg);
  }
  return stmt;
}

// Rows of (type, value); a row with a NULL ends the list empty, as upstream's scan loop does.
Result<std::vector<TypedValue>> typed_values(Connection& db, std::string_view table,
                                             const std::string& name, const std::string& version,
                                             const std::string& path) {
  auto sql = fmt::format("SELECT DISTINCT type, value FROM {} WHERE operatorbundle_name=? "
                         "AND (operatorbundle_version=? OR operatorbundle_version is NULL) "
                         "AND (operatorbundle_path=? OR operatorbundle_path is NULL)",
                         table);
  Statement stmt = OPM_TRY(query(db, sql, {name, version, path}));
  std::vector<TypedValue> values;
  while (OPM_TRY(stmt.step())) {
    if (stmt.is_null(0) || stmt.is_null(1)) {
      return std::vector<TypedValue>{};
    }
    values.push_back({stmt.text_or_empty(0), stmt.text_or_empty(1)});
  }
  return values;
}

// GVKs of the entry's bundle from `table` rows of type olm.gvk; values that are not objects
// are skipped.
Result<std::vector<Gvk>> entry_gvks(Connection& db, std::string_view sql, std::int64_t entry_id) {
  Statement stmt = OPM_TRY(db.prepare(sql));
  stmt.bind(1, k_gvk_type).bind(2, entry_id);
  std::vector<Gvk> gvks;
  while (OPM_TRY(stmt.step())) {
    if (auto gvk = stmt.is_null(0) ? std::nullopt : parse_gvk(stmt.text_or_empty(0))) {
      gvks.push_back(std::move(*gvk));
    }
  }
  return gvks;
}

// Upstream's IN list: each value in double quotes, unescaped (SQLite reads them as strings).
std::string in_list(const std::set<std::string>& values) {
  std::string out = "(";
  for (const auto& v : values) {
    out += (out.size() > 1 ? ",\"" : "\"") + v + "\"";
  }
  return out + ")";
}

// Fills the plural of every GVK from the api table.
Result<void> add_plurals(Connection& db, std::vector<Gvk>& provided, std::vector<Gvk>& required) {
  std::set<std::string> groups;
  std::set<std::string> versions;
  std::set<std::string> kinds;
  for (const auto* list : {&provided, &required}) {
    for (const Gvk& gvk : *list) {
      groups.insert(gvk.group);
      versions.insert(gvk.version);
      kinds.insert(gvk.kind);
    }
  }
  auto sql = "SELECT * FROM api WHERE api.group_name IN " + in_list(groups) +
             " AND api.version IN " + in_list(versions) + " AND api.kind IN " + in_list(kinds);
  Statement stmt = OPM_TRY(db.prepare(sql));
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, std::string> plurals;
  while (OPM_TRY(stmt.step())) {
    if (stmt.column_count() < 4 || stmt.is_null(0) || stmt.is_null(1) || stmt.is_null(2) ||
        stmt.is_null(3)) {
      continue;
    }
    plurals[{stmt.text_or_empty(0), stmt.text_or_empty(1), stmt.text_or_empty(2)}] =
        stmt.text_or_empty(3);
  }
  for (auto* list : {&provided, &required}) {
    for (Gvk& gvk : *list) {
      if (auto it = plurals.find({gvk.group, gvk.version, gvk.kind}); it != plurals.end()) {
        gvk.plural = it->second;
      }
    }
  }
  return {};
}

// Adds what other tables say about the bundle of entry `entry_id`: its APIs (with plurals),
// dependencies and properties.
Result<BundleAnswer> fill_relations(Connection& db, std::int64_t entry_id, BundleAnswer out) {
  out.provided_apis = OPM_TRY(entry_gvks(db,
                                         "SELECT properties.value FROM properties INNER JOIN "
                                         "channel_entry ON channel_entry.operatorbundle_name = "
                                         "properties.operatorbundle_name WHERE properties.type=? "
                                         "AND channel_entry.entry_id=?",
                                         entry_id));
  out.required_apis =
      OPM_TRY(entry_gvks(db,
                         "SELECT DISTINCT dependencies.value FROM dependencies INNER JOIN "
                         "channel_entry ON channel_entry.operatorbundle_name = "
                         "dependencies.operatorbundle_name WHERE dependencies.type=? AND "
                         "channel_entry.entry_id=?",
                         entry_id));
  OPM_TRY(add_plurals(db, out.provided_apis, out.required_apis));
  out.dependencies =
      OPM_TRY(typed_values(db, "dependencies", out.csv_name, out.version, out.bundle_path));
  out.properties =
      OPM_TRY(typed_values(db, "properties", out.csv_name, out.version, out.bundle_path));
  return out;
}

// A bundle from a row of (entry id, k_bundle_columns), completed by fill_relations.
Result<BundleAnswer> read_bundle(Connection& db, const Statement& stmt, std::string_view pkg,
                                 std::string_view channel) {
  BundleAnswer out;
  if (auto bundle = stmt.text(2); bundle && !bundle->empty()) {
    OPM_TRY(read_manifests(*bundle, out));
  }
  out.csv_name = stmt.text_or_empty(1);
  out.package_name = pkg;
  out.channel_name = channel;
  out.bundle_path = stmt.text_or_empty(3);
  out.version = stmt.text_or_empty(4);
  out.skip_range = stmt.text_or_empty(5);
  return fill_relations(db, stmt.integer(0), std::move(out));
}

Result<std::vector<EntryAnswer>> read_entries(Statement& stmt, bool with_replaces,
                                              std::string_view replaces) {
  std::vector<EntryAnswer> entries;
  while (OPM_TRY(stmt.step())) {
    entries.push_back({stmt.text_or_empty(0), stmt.text_or_empty(1), stmt.text_or_empty(2),
                       with_replaces ? stmt.text_or_empty(3) : std::string(replaces)});
  }
  return entries;
}

} // namespace

Result<std::vector<std::string>> Querier::tables() {
  std::lock_guard lock(m_mutex);
  Statement stmt =
      OPM_TRY(query(m_db, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name;"));
  std::vector<std::string> names;
  while (OPM_TRY(stmt.step())) {
    if (auto name = stmt.text(0)) {
      names.push_back(std::move(*name));
    }
  }
  return names;
}

Result<std::vector<std::string>> Querier::package_names() {
  std::lock_guard lock(m_mutex);
  Statement stmt = OPM_TRY(query(m_db, "SELECT DISTINCT name FROM package"));
  std::vector<std::string> names;
  while (OPM_TRY(stmt.step())) {
    if (auto name = stmt.text(0)) {
      names.push_back(std::move(*name));
    }
  }
  return names;
}

Result<PackageAnswer> Querier::package(std::string_view name) {
  std::lock_guard lock(m_mutex);
  Statement stmt = OPM_TRY(query(m_db,
                                 "SELECT DISTINCT package.name, default_channel, channel.name, "
                                 "channel.head_operatorbundle_name FROM package INNER JOIN "
                                 "channel ON channel.package_name=package.name WHERE "
                                 "package.name=?",
                                 {name}));
  PackageAnswer out;
  while (OPM_TRY(stmt.step())) {
    out.name = stmt.text_or_empty(0);
    out.default_channel = stmt.text_or_empty(1);
    out.channels.push_back({stmt.text_or_empty(2), stmt.text_or_empty(3)});
  }
  if (out.channels.empty()) {
    return util::fail(Errc::not_found, fmt::format("package {} not found", name));
  }
  return out;
}

Result<BundleAnswer> Querier::bundle(std::string_view pkg, std::string_view channel,
                                     std::string_view csv) {
  std::lock_guard lock(m_mutex);
  auto sql = fmt::format("SELECT DISTINCT channel_entry.entry_id, {} FROM operatorbundle INNER "
                         "JOIN channel_entry ON operatorbundle.name=channel_entry."
                         "operatorbundle_name WHERE channel_entry.package_name=? AND "
                         "channel_entry.channel_name=? AND operatorbundle_name=? LIMIT 1",
                         k_bundle_columns);
  Statement stmt = OPM_TRY(query(m_db, sql, {pkg, channel, csv}));
  if (!OPM_TRY(stmt.step())) {
    return util::fail(Errc::not_found,
                      fmt::format("no entry found for {} {} {}", pkg, channel, csv));
  }
  return read_bundle(m_db, stmt, pkg, channel);
}

Result<BundleAnswer> Querier::bundle_for_channel(std::string_view pkg, std::string_view channel) {
  std::lock_guard lock(m_mutex);
  Statement stmt = OPM_TRY(query(m_db,
                                 "SELECT operatorbundle.name, operatorbundle.csv FROM "
                                 "operatorbundle INNER JOIN channel ON "
                                 "channel.head_operatorbundle_name = operatorbundle.name WHERE "
                                 "channel.name = :channel AND channel.package_name = :package",
                                 {channel, pkg}));
  if (!OPM_TRY(stmt.step())) {
    return util::fail(Errc::not_found, fmt::format("no entry found for {} {}", pkg, channel));
  }
  BundleAnswer out;
  out.csv_name = stmt.text_or_empty(0);
  out.csv_json = stmt.text_or_empty(1);
  return out;
}

Result<std::vector<EntryAnswer>> Querier::entries_that_replace(std::string_view csv) {
  std::lock_guard lock(m_mutex);
  Statement stmt = OPM_TRY(query(m_db,
                                 "SELECT DISTINCT channel_entry.package_name, "
                                 "channel_entry.channel_name, channel_entry.operatorbundle_name "
                                 "FROM channel_entry LEFT OUTER JOIN channel_entry replaces ON "
                                 "channel_entry.replaces = replaces.entry_id WHERE "
                                 "replaces.operatorbundle_name = ?",
                                 {csv}));
  auto entries = OPM_TRY(read_entries(stmt, false, csv));
  if (entries.empty()) {
    return util::fail(Errc::not_found,
                      fmt::format("no channel entries found that replace {}", csv));
  }
  return entries;
}

Result<BundleAnswer> Querier::bundle_that_replaces(std::string_view csv, std::string_view pkg,
                                                   std::string_view channel) {
  std::lock_guard lock(m_mutex);
  Statement stmt = OPM_TRY(query(m_db,
                                 "SELECT DISTINCT replaces.entry_id, operatorbundle.name, "
                                 "operatorbundle.bundle, operatorbundle.bundlepath, "
                                 "operatorbundle.version, operatorbundle.skiprange FROM "
                                 "channel_entry LEFT OUTER JOIN channel_entry replaces ON "
                                 "replaces.replaces = channel_entry.entry_id INNER JOIN "
                                 "operatorbundle ON replaces.operatorbundle_name = "
                                 "operatorbundle.name WHERE channel_entry.operatorbundle_name = "
                                 "? AND channel_entry.package_name = ? AND "
                                 "channel_entry.channel_name = ? LIMIT 1",
                                 {csv, pkg, channel}));
  if (!OPM_TRY(stmt.step())) {
    return util::fail(Errc::not_found, fmt::format("no entry found for {} {}", pkg, channel));
  }
  return read_bundle(m_db, stmt, pkg, channel);
}

namespace {

// The entries `sql` selects for a GVK (bound as the olm.gvk type and value); upstream's
// "no channel entries found that provide" when there are none.
Result<std::vector<EntryAnswer>> entries_providing(Connection& db, const char* sql,
                                                   std::string_view group, std::string_view version,
                                                   std::string_view kind) {
  Statement stmt = OPM_TRY(query(db, sql, {k_gvk_type, gvk_value(group, version, kind)}));
  auto entries = OPM_TRY(read_entries(stmt, true, {}));
  if (entries.empty()) {
    return util::fail(Errc::not_found, fmt::format("no channel entries found that provide {} {} {}",
                                                   group, version, kind));
  }
  return entries;
}

} // namespace

Result<std::vector<EntryAnswer>> Querier::entries_that_provide(std::string_view group,
                                                               std::string_view version,
                                                               std::string_view kind) {
  std::lock_guard lock(m_mutex);
  return entries_providing(
      m_db,
      "SELECT DISTINCT channel_entry.package_name, channel_entry.channel_name, "
      "channel_entry.operatorbundle_name, replaces.operatorbundle_name FROM channel_entry INNER "
      "JOIN properties ON channel_entry.operatorbundle_name = properties.operatorbundle_name "
      "LEFT OUTER JOIN channel_entry replaces ON channel_entry.replaces = replaces.entry_id "
      "WHERE properties.type=? AND properties.value=?",
      group, version, kind);
}

Result<std::vector<EntryAnswer>> Querier::latest_entries_that_provide(std::string_view group,
                                                                      std::string_view version,
                                                                      std::string_view kind) {
  std::lock_guard lock(m_mutex);
  return entries_providing(
      m_db,
      "SELECT DISTINCT channel_entry.package_name, channel_entry.channel_name, "
      "channel_entry.operatorbundle_name, replaces.operatorbundle_name, "
      "MIN(channel_entry.depth) FROM channel_entry INNER JOIN properties ON "
      "channel_entry.operatorbundle_name = properties.operatorbundle_name LEFT OUTER JOIN "
      "channel_entry replaces ON channel_entry.replaces = replaces.entry_id WHERE "
      "properties.type = ? AND properties.value = ? GROUP BY channel_entry.package_name, "
      "channel_entry.channel_name",
      group, version, kind);
}

Result<BundleAnswer> Querier::default_bundle_that_provides(std::string_view group,
                                                           std::string_view version,
                                                           std::string_view kind) {
  std::lock_guard lock(m_mutex);
  Statement stmt = OPM_TRY(query(
      m_db,
      "SELECT DISTINCT channel_entry.entry_id, operatorbundle.bundle, operatorbundle.bundlepath, "
      "MIN(channel_entry.depth), channel_entry.operatorbundle_name, channel_entry.package_name, "
      "channel_entry.channel_name, channel_entry.replaces, operatorbundle.version, "
      "operatorbundle.skiprange FROM channel_entry INNER JOIN operatorbundle ON "
      "operatorbundle.name = channel_entry.operatorbundle_name INNER JOIN properties ON "
      "channel_entry.operatorbundle_name = properties.operatorbundle_name INNER JOIN package ON "
      "package.name = channel_entry.package_name WHERE properties.type = ? AND "
      "properties.value = ? AND package.default_channel = channel_entry.channel_name GROUP BY "
      "channel_entry.package_name, channel_entry.channel_name",
      {k_gvk_type, gvk_value(group, version, kind)}));
  auto not_found = [&] {
    return util::fail(Errc::not_found,
                      fmt::format("no entry found that provides {} {} {}", group, version, kind));
  };
  if (!OPM_TRY(stmt.step()) || stmt.is_null(1)) {
    return not_found();
  }
  // This query's columns differ from the other bundle queries'.
  BundleAnswer out;
  if (auto bundle = stmt.text(1); bundle && !bundle->empty()) {
    OPM_TRY(read_manifests(*bundle, out));
  }
  out.csv_name = stmt.text_or_empty(4);
  out.package_name = stmt.text_or_empty(5);
  out.channel_name = stmt.text_or_empty(6);
  out.bundle_path = stmt.text_or_empty(2);
  out.version = stmt.text_or_empty(8);
  out.skip_range = stmt.text_or_empty(9);
  return fill_relations(m_db, stmt.integer(0), std::move(out));
}

} // namespace opm::sqlite
