#include "sqlite/package_rebuild.hpp"

#include "json/go_json.hpp"
#include "json/value.hpp"
#include "sqlite/connection.hpp"
#include "sqlite/detail/values.hpp"
#include "sqlite/package_read.hpp"
#include "util/go_errors.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <set>

namespace opm::sqlite {

namespace {

using detail::null_if_empty;

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
      if (OPM_TRY(bundle_deprecated(db, name))) {
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
  OPM_TRY(detail::wrap(add_package.run(), fmt::format("failed to add package \"{}\"", m.package)));

  std::vector<std::string> errors;
  std::vector<ChannelHead> written;
  bool has_default = false;
  for (const auto& c : m.channels) {
    if (OPM_TRY(bundle_deprecated(db, c.head))) {
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
    return util::fail(Errc::invalid, util::aggregate_text(errors));
  }
  return {};
}

} // namespace

Result<void> rebuild_package(Connection& db, const PackageManifest& manifest) {
  auto tx = OPM_TRY(Transaction::begin(db));
  OPM_TRY(write_package(db, manifest));
  return tx.commit();
}

} // namespace opm::sqlite
