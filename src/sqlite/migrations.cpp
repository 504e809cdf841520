#include "sqlite/migrations.hpp"

#include "json/go_json.hpp"
#include "json/text.hpp"
#include "sqlite/detail/schema_sql.hpp"
#include "util/source_date.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace opm::sqlite {

namespace {

// Rebuild every table with ON DELETE CASCADE keys. PRAGMA foreign_keys has no effect inside
// the migration transaction (it is issued as upstream issues it), so dropping an old table
// that still has rows pointing at it would fail as upstream fails; the keys are checked at
// commit instead, when every old table is gone.
struct RebuiltTable {
  std::string_view name;
  std::string_view create;
};
constexpr std::array<RebuiltTable, 7> k_step4_tables{{
    {"operatorbundle", detail::k_step4_operatorbundle},
    {"package", detail::k_step4_package},
    {"channel", detail::k_step4_channel},
    {"channel_entry", detail::k_step4_channel_entry},
    {"api_provider", detail::k_step4_api_provider},
    {"related_image", detail::k_step4_related_image},
    {"api_requirer", detail::k_step4_api_requirer},
}};

Result<void> cascade_delete(Connection& db) {
  OPM_TRY(db.exec("PRAGMA defer_foreign_keys = ON"));
  OPM_TRY(db.exec("PRAGMA foreign_keys = 0"));
  for (const auto& table : k_step4_tables) {
    OPM_TRY(db.exec(fmt::format("ALTER TABLE {0} RENAME TO {0}_old;", table.name)));
  }
  for (const auto& table : k_step4_tables) {
    OPM_TRY(db.exec(table.create));
  }
  for (const auto& table : k_step4_tables) {
    OPM_TRY(db.exec(fmt::format("INSERT INTO {0} SELECT * FROM \"{0}_old\"", table.name)));
    OPM_TRY(db.exec(fmt::format("DROP TABLE \"{0}_old\"", table.name)));
  }
  return db.exec("PRAGMA foreign_keys = 1");
}

// The old rows re-keyed from channel entries to bundles, each (api, bundle) pair once.
constexpr std::string_view k_step6_copy = R"(
INSERT INTO api_provider_new(group_name, version, kind, operatorbundle_name, operatorbundle_version, operatorbundle_path)
  SELECT DISTINCT api_provider.group_name, api_provider.version, api_provider.kind, operatorbundle.name, operatorbundle.version, operatorbundle.bundlepath
  FROM api_provider
  INNER JOIN channel_entry ON channel_entry.entry_id = api_provider.channel_entry_id
  INNER JOIN operatorbundle ON operatorbundle.name = channel_entry.operatorbundle_name
  WHERE api_provider.group_name IS NOT NULL AND api_provider.version IS NOT NULL
    AND api_provider.kind IS NOT NULL AND operatorbundle.name IS NOT NULL;
INSERT INTO api_requirer_new(group_name, version, kind, operatorbundle_name, operatorbundle_version, operatorbundle_path)
  SELECT DISTINCT api_requirer.group_name, api_requirer.version, api_requirer.kind, operatorbundle.name, operatorbundle.version, operatorbundle.bundlepath
  FROM api_requirer
  INNER JOIN channel_entry ON channel_entry.entry_id = api_requirer.channel_entry_id
  INNER JOIN operatorbundle ON operatorbundle.name = channel_entry.operatorbundle_name
  WHERE api_requirer.group_name IS NOT NULL AND api_requirer.version IS NOT NULL
    AND api_requirer.kind IS NOT NULL AND operatorbundle.name IS NOT NULL;
DROP TABLE api_provider;
DROP TABLE api_requirer;
ALTER TABLE api_provider_new RENAME TO api_provider;
ALTER TABLE api_requirer_new RENAME TO api_requirer;
)";

// Upstream's subquery is not correlated (both names refer to the inner table), so every
// dependency row receives the type-stripped value of the first row. Kept as it is, so an
// upgraded database reads as upstream's does.
constexpr std::string_view k_step9_strip_type = R"(
UPDATE dependencies
SET value = (SELECT json_remove(value, '$.type')
             FROM dependencies
             WHERE operatorbundle_name=dependencies.operatorbundle_name);
)";

constexpr std::string_view k_step10 = R"(
UPDATE properties
SET operatorbundle_path = (SELECT bundlepath
                           FROM operatorbundle
                           WHERE operatorbundle_name = operatorbundle.name AND operatorbundle_version = operatorbundle.version);
)";

constexpr std::string_view k_step12_fill =
    "INSERT OR REPLACE INTO deprecated(operatorbundle_name) SELECT operatorbundle_name FROM "
    "properties WHERE properties.type='olm.deprecated'";

constexpr std::string_view k_step13 =
    "DELETE FROM deprecated WHERE deprecated.operatorbundle_name NOT IN (SELECT DISTINCT "
    "deprecated.operatorbundle_name FROM (deprecated INNER JOIN operatorbundle ON "
    "deprecated.operatorbundle_name = operatorbundle.name));";

Result<std::vector<std::string>> bundle_names(Connection& db) {
  auto stmt = OPM_TRY(db.prepare("SELECT DISTINCT name FROM operatorbundle"));
  std::vector<std::string> names;
  while (OPM_TRY(stmt.step())) {
    if (auto name = stmt.text(0)) {
      names.push_back(std::move(*name));
    }
  }
  return names;
}

// A bundle's stored CSV, decoded; nullopt when it is missing or not JSON (upstream logs
// these and skips the bundle).
Result<std::optional<Json>> stored_csv(Connection& db, const std::string& name) {
  auto stmt = OPM_TRY(db.prepare("SELECT csv FROM operatorbundle WHERE operatorbundle.name=?"));
  stmt.bind(1, name);
  if (!OPM_TRY(stmt.step())) {
    return std::nullopt;
  }
  auto text = stmt.text(0);
  if (!text) {
    return std::nullopt;
  }
  auto parsed = json::text::parse(*text);
  if (!parsed || !parsed->is_object()) {
    return std::nullopt;
  }
  return std::optional<Json>(std::move(*parsed));
}

const Json* member(const Json& v, std::initializer_list<std::string_view> path) {
  const Json* at = &v;
  for (auto key : path) {
    if (!at->is_object()) {
      return nullptr;
    }
    auto it = at->find(std::string(key));
    if (it == at->end()) {
      return nullptr;
    }
    at = &*it;
  }
  return at;
}

std::string string_at(const Json& v, std::initializer_list<std::string_view> path) {
  const Json* at = member(v, path);
  return at != nullptr && at->is_string() ? at->get<std::string>() : std::string();
}

void each_element(const Json* array, const std::function<void(const Json&)>& visit) {
  if (array != nullptr && array->is_array()) {
    for (const auto& e : *array) {
      visit(e);
    }
  }
}

// Operator images (deployment containers and init containers) and spec.relatedImages.
std::set<std::string> csv_images(const Json& csv) {
  std::set<std::string> images;
  each_element(member(csv, {"spec", "install", "spec", "deployments"}), [&](const Json& dep) {
    for (auto list : {"containers", "initContainers"}) {
      each_element(member(dep, {"spec", "template", "spec", list}),
                   [&](const Json& c) { images.insert(string_at(c, {"image"})); });
    }
  });
  each_element(member(csv, {"spec", "relatedImages"}),
               [&](const Json& ri) { images.insert(string_at(ri, {"image"})); });
  return images;
}

Result<void> backfill_related_images(Connection& db) {
  auto insert =
      OPM_TRY(db.prepare("insert into related_image(image, operatorbundle_name) values(?,?)"));
  for (const auto& name : OPM_TRY(bundle_names(db))) {
    auto csv = OPM_TRY(stored_csv(db, name));
    if (!csv) {
      continue;
    }
    for (const auto& image : csv_images(*csv)) {
      insert.reset();
      insert.bind(1, image).bind(2, name);
      (void)insert.run(); // upstream only logs a failed row
    }
  }
  return {};
}

struct RequiredApi {
  std::string group, version, kind, plural;
};

std::vector<RequiredApi> csv_required_apis(const Json& csv) {
  std::vector<RequiredApi> apis;
  each_element(member(csv, {"spec", "customresourcedefinitions", "required"}), [&](const Json& c) {
    std::string name = string_at(c, {"name"});
    auto dot = name.find('.');
    if (dot == std::string::npos) {
      return;
    }
    apis.push_back({name.substr(dot + 1), string_at(c, {"version"}), string_at(c, {"kind"}),
                    name.substr(0, dot)});
  });
  each_element(member(csv, {"spec", "apiservicedefinitions", "required"}), [&](const Json& a) {
    apis.push_back({string_at(a, {"group"}), string_at(a, {"version"}), string_at(a, {"kind"}),
                    string_at(a, {"name"})});
  });
  return apis;
}

Result<void> backfill_required_apis(Connection& db) {
  auto entries = OPM_TRY(db.prepare(
      "SELECT DISTINCT channel_entry.entry_id, operatorbundle.name FROM channel_entry "
      "INNER JOIN operatorbundle ON operatorbundle.name = channel_entry.operatorbundle_name"));
  std::map<std::int64_t, std::string> bundles;
  while (OPM_TRY(entries.step())) {
    if (!entries.is_null(0) && !entries.is_null(1)) {
      bundles[entries.integer(0)] = entries.text_or_empty(1);
    }
  }
  auto add_api = OPM_TRY(db.prepare(
      "insert or replace into api(group_name, version, kind, plural) values(?, ?, ?, ?)"));
  auto add_requirer = OPM_TRY(db.prepare(
      "insert into api_requirer(group_name, version, kind, channel_entry_id) values(?, ?, ?, ?)"));
  for (const auto& [entry_id, name] : bundles) {
    auto csv = OPM_TRY(stored_csv(db, name));
    if (!csv) {
      continue;
    }
    for (const auto& api : csv_required_apis(*csv)) {
      add_api.reset();
      add_api.bind(1, api.group).bind(2, api.version).bind(3, api.kind).bind(4, api.plural);
      add_requirer.reset();
      add_requirer.bind(1, api.group).bind(2, api.version).bind(3, api.kind).bind(4, entry_id);
      // A failure ends this bundle's backfill only; upstream logs it and goes on.
      if (!add_api.run() || !add_requirer.run()) {
        break;
      }
    }
  }
  return {};
}

// Version and olm.skipRange from each stored CSV. Upstream's statement here inserted new
// rows instead of updating the bundle's, which left every upgraded bundle without a version
// (and so invisible to render); the values are written to the bundle itself.
Result<void> backfill_versions(Connection& db) {
  auto update =
      OPM_TRY(db.prepare("UPDATE operatorbundle SET version = ?, skiprange = ? WHERE name = ?"));
  for (const auto& name : OPM_TRY(bundle_names(db))) {
    auto csv = OPM_TRY(stored_csv(db, name));
    if (!csv) {
      continue;
    }
    update.reset();
    update.bind(1, string_at(*csv, {"spec", "version"}))
        .bind(2, string_at(*csv, {"metadata", "annotations", "olm.skipRange"}))
        .bind(3, name);
    (void)update.run();
  }
  return {};
}

Result<void> backfill_replaces(Connection& db) {
  auto replacees = OPM_TRY(db.prepare(R"(
SELECT DISTINCT replaces.operatorbundle_name
FROM channel_entry
LEFT OUTER JOIN channel_entry replaces ON channel_entry.replaces = replaces.entry_id
WHERE channel_entry.operatorbundle_name = ?
ORDER BY channel_entry.depth ASC)"));
  auto update =
      OPM_TRY(db.prepare("update operatorbundle SET replaces = ?, skips = ? WHERE name = ?;"));
  for (const auto& name : OPM_TRY(bundle_names(db))) {
    replacees.reset();
    replacees.bind(1, name);
    std::string replaces;
    std::string skips;
    bool first = true;
    while (OPM_TRY(replacees.step())) {
      auto replacee = replacees.text(0);
      if (first) {
        replaces = replacee.value_or("");
        first = false;
      } else if (replacee) {
        skips += (skips.empty() ? "" : ",") + *replacee;
      }
    }
    update.reset();
    update.bind(1, replaces).bind(2, skips).bind(3, name);
    if (auto done = update.run(); !done) {
      return std::unexpected(std::move(done).error().wrap("error backfilling replaces and skips"));
    }
  }
  return {};
}

// json.Marshal of a map[string]string: keys sorted, HTML characters escaped.
std::string marshal_strings(std::initializer_list<std::pair<std::string_view, std::string>> kv) {
  Json v = Json::object();
  for (const auto& [k, value] : kv) {
    v[std::string(k)] = value;
  }
  return json::marshal(v);
}

Result<void> backfill_dependencies(Connection& db) {
  auto rows = OPM_TRY(db.prepare(
      "SELECT DISTINCT group_name, version, kind, operatorbundle_name, operatorbundle_version, "
      "operatorbundle_path FROM api_requirer WHERE group_name IS NOT NULL AND version IS NOT NULL "
      "AND kind IS NOT NULL AND operatorbundle_name IS NOT NULL"));
  auto insert = OPM_TRY(db.prepare(
      "INSERT INTO dependencies(type, value, operatorbundle_name, operatorbundle_version, "
      "operatorbundle_path) VALUES (?, ?, ?, ?, ?)"));
  while (OPM_TRY(rows.step())) {
    insert.reset();
    insert.bind(1, std::string_view("olm.gvk"))
        .bind(2, marshal_strings({{"type", "olm.gvk"},
                                  {"group", rows.text_or_empty(0)},
                                  {"version", rows.text_or_empty(1)},
                                  {"kind", rows.text_or_empty(2)}}))
        .bind_optional(3, rows.text(3))
        .bind_optional(4, rows.text(4))
        .bind_optional(5, rows.text(5));
    OPM_TRY(insert.run());
  }
  return {};
}

Result<std::string> package_of(Connection& db, const std::string& bundle) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT DISTINCT package_name FROM channel_entry WHERE channel_entry.operatorbundle_name=?"));
  stmt.bind(1, bundle);
  if (OPM_TRY(stmt.step())) {
    return stmt.text_or_empty(0);
  }
  return std::string();
}

Result<void> backfill_properties(Connection& db) {
  auto rows = OPM_TRY(db.prepare(
      "SELECT group_name, version, kind, operatorbundle_name, operatorbundle_version, "
      "operatorbundle_path FROM api_provider WHERE group_name IS NOT NULL AND version IS NOT "
      "NULL AND kind IS NOT NULL AND operatorbundle_name IS NOT NULL"));
  struct Key {
    std::optional<std::string> name, version, path;
    auto operator<=>(const Key&) const = default;
  };
  std::map<Key, std::set<std::array<std::string, 3>>> provided;
  while (OPM_TRY(rows.step())) {
    provided[Key{rows.text(3), rows.text(4), rows.text(5)}].insert(
        {rows.text_or_empty(0), rows.text_or_empty(1), rows.text_or_empty(2)});
  }
  auto insert = OPM_TRY(
      db.prepare("INSERT INTO properties(type, value, operatorbundle_name, operatorbundle_version, "
                 "operatorbundle_path) VALUES (?, ?, ?, ?, ?)"));
  auto add = [&](const Key& key, std::string_view type, const std::string& value) {
    insert.reset();
    insert.bind(1, type)
        .bind(2, value)
        .bind_optional(3, key.name)
        .bind_optional(4, key.version)
        .bind_optional(5, key.path);
    return insert.run();
  };
  for (const auto& [key, apis] : provided) {
    auto pkg = OPM_TRY(package_of(db, *key.name));
    OPM_TRY(add(key, "olm.package",
                marshal_strings({{"packageName", pkg}, {"version", key.version.value_or("")}})));
    for (const auto& [group, version, kind] : apis) {
      OPM_TRY(add(key, "olm.gvk",
                  marshal_strings({{"group", group}, {"version", version}, {"kind", kind}})));
    }
  }
  return db.exec(k_step9_strip_type);
}

using Step = std::function<Result<void>(Connection&)>;

Step sql(std::string_view text) {
  return [text](Connection& db) { return db.exec(text); };
}

Step sql_then(std::string_view text, Result<void> (*backfill)(Connection&)) {
  return [text, backfill](Connection& db) -> Result<void> {
    OPM_TRY(db.exec(text));
    return backfill(db);
  };
}

const std::vector<Step>& steps() {
  static const std::vector<Step> all = {
      sql(detail::k_step0),
      sql_then(detail::k_step1, backfill_related_images),
      sql(detail::k_step2),
      sql_then(detail::k_step3, backfill_required_apis),
      cascade_delete,
      sql_then(detail::k_step5, backfill_versions),
      [](Connection& db) -> Result<void> {
        OPM_TRY(db.exec(detail::k_step6_create));
        return db.exec(k_step6_copy);
      },
      [](Connection& db) -> Result<void> {
        OPM_TRY(db.exec(detail::k_step7_columns));
        OPM_TRY(db.exec(detail::k_step7_provider_trigger));
        OPM_TRY(db.exec(detail::k_step7_requirer_trigger));
        return backfill_replaces(db);
      },
      sql_then(detail::k_step8, backfill_dependencies),
      sql_then(detail::k_step9, backfill_properties),
      sql(k_step10),
      sql(detail::k_step11),
      [](Connection& db) -> Result<void> {
        OPM_TRY(db.exec(detail::k_step12_create));
        return db.exec(k_step12_fill);
      },
      sql(k_step13),
  };
  return all;
}

// The row's timestamp is the time of the migration, as upstream writes it, unless
// SOURCE_DATE_EPOCH gives one: then the same bundles always give the same database file.
Result<void> set_version(Connection& db, int version) {
  OPM_TRY(db.exec(detail::k_create_migrations_table));
  OPM_TRY(db.exec("DELETE FROM schema_migrations"));
  const char* epoch_text = std::getenv("SOURCE_DATE_EPOCH");
  auto epoch = epoch_text ? util::parse_source_date_epoch(epoch_text) : std::nullopt;
  if (!epoch) {
    auto insert = OPM_TRY(db.prepare("INSERT INTO schema_migrations(version) values(?)"));
    insert.bind(1, std::int64_t{version});
    return insert.run();
  }
  auto insert = OPM_TRY(db.prepare(
      "INSERT INTO schema_migrations(version, timestamp) values(?, datetime(?, 'unixepoch'))"));
  insert.bind(1, std::int64_t{version});
  insert.bind(2, *epoch);
  return insert.run();
}

} // namespace

Result<int> schema_version(Connection& db) {
  auto exists =
      OPM_TRY(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'schema_migrations'"));
  if (!OPM_TRY(exists.step()) || exists.integer(0) == 0) {
    return -1;
  }
  auto row = OPM_TRY(db.prepare("SELECT version FROM schema_migrations LIMIT 1"));
  if (!OPM_TRY(row.step())) {
    return -1;
  }
  return static_cast<int>(row.integer(0));
}

Result<void> migrate(Connection& db) {
  int current = OPM_TRY(schema_version(db));
  if (current >= k_latest_schema_version) {
    return {};
  }
  auto tx = OPM_TRY(Transaction::begin(db));
  OPM_TRY(db.exec(detail::k_create_migrations_table));
  const auto& all = steps();
  for (int id = current + 1; id <= k_latest_schema_version; ++id) {
    if (id != OPM_TRY(schema_version(db)) + 1) {
      return util::fail(Errc::internal, "migration applied out of order");
    }
    OPM_TRY(all[static_cast<std::size_t>(id)](db));
    OPM_TRY(set_version(db, id));
  }
  return tx.commit();
}

} // namespace opm::sqlite
