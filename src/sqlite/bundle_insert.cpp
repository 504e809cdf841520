#include "sqlite/bundle_insert.hpp"

#include "json/go_json.hpp"
#include "json/text.hpp"
#include "json/value.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/detail/values.hpp"
#include "sqlite/package_read.hpp"
#include "sqlite/substitutes.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::sqlite {

namespace {

using detail::null_if_empty;

std::string gvk_value(const ApiRow& api) {
  return json::marshal(Json{{"group", api.group}, {"kind", api.kind}, {"version", api.version}});
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
      .bind(8, util::join(b.skips, ","))
      .bind(9, b.substitutes_for);
  return detail::wrap(stmt.run(), fmt::format("failed to add bundle \"{}\"", b.name));
}

Result<void> insert_images(Connection& db, const NewBundle& b) {
  auto stmt =
      OPM_TRY(db.prepare("insert into related_image(image, operatorbundle_name) values(?,?)"));
  for (const auto& image : b.images) {
    stmt.reset();
    stmt.bind(1, image).bind(2, b.name);
    OPM_TRY(detail::wrap(
        stmt.run(),
        fmt::format("failed to add related images \"{}\" for bundle \"{}\"", image, b.name)));
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
  if (OPM_TRY(bundle_deprecated(db, b.name))) {
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
  OPM_TRY(detail::wrap(insert_dependencies(db, bundle), "failed to add dependencies "));
  OPM_TRY(detail::wrap(insert_properties(db, bundle), "failed to add properties "));
  if (enable_alpha) {
    OPM_TRY(detail::wrap(add_substitutes_for(db, bundle), "failed to add substitutes "));
  }
  OPM_TRY(insert_apis(db, bundle));
  return tx.commit();
}

} // namespace opm::sqlite
