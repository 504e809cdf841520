#include "sqlite/deprecate.hpp"

#include "sqlite/connection.hpp"
#include "sqlite/remove.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <vector>

namespace opm::sqlite {

namespace {

// One bundle of the replaces chain below a deprecated bundle, over all its channels.
struct TailBundle {
  std::vector<std::string> channels;
  std::vector<std::string> replaces;
  std::vector<std::string> replaced_by;
};

constexpr std::string_view k_tail_query = R"(
WITH RECURSIVE
  replaces_entry (operatorbundle_name, replaces, replaced_by, channel_name, package_name) AS (
  SELECT channel_entry.operatorbundle_name, replaces.operatorbundle_name,
         replaced_by.operatorbundle_name, channel_entry.channel_name, channel_entry.package_name
    FROM channel_entry
    LEFT OUTER JOIN channel_entry AS replaces ON replaces.entry_id = channel_entry.replaces
    LEFT OUTER JOIN channel_entry AS replaced_by ON channel_entry.entry_id = replaced_by.replaces
    WHERE channel_entry.operatorbundle_name = ?
  UNION
  SELECT channel_entry.operatorbundle_name, replaces.operatorbundle_name,
         replaced_by.operatorbundle_name, channel_entry.channel_name, channel_entry.package_name
    FROM channel_entry
    JOIN replaces_entry ON replaces_entry.replaces = channel_entry.operatorbundle_name
    LEFT OUTER JOIN channel_entry AS replaces ON channel_entry.replaces = replaces.entry_id
    LEFT OUTER JOIN channel_entry AS replaced_by ON channel_entry.entry_id = replaced_by.replaces
  )
SELECT replaces_entry.operatorbundle_name, GROUP_CONCAT(DISTINCT replaces_entry.channel_name),
       GROUP_CONCAT(DISTINCT replaces_entry.replaces),
       GROUP_CONCAT(DISTINCT replaces_entry.replaced_by)
FROM replaces_entry
LEFT OUTER JOIN operatorbundle ON operatorbundle.name = replaces_entry.operatorbundle_name
GROUP BY replaces_entry.operatorbundle_name, replaces_entry.package_name
ORDER BY replaces_entry.channel_name, replaces_entry.replaces, replaces_entry.replaced_by)";

std::vector<std::string> split_commas(const std::optional<std::string>& text) {
  std::vector<std::string> out;
  if (!text || text->empty()) {
    return out;
  }
  std::size_t start = 0;
  while (true) {
    auto comma = text->find(',', start);
    out.push_back(text->substr(start, comma - start));
    if (comma == std::string::npos) {
      return out;
    }
    start = comma + 1;
  }
}

Result<std::string> default_channel_head(Connection& db, const std::string& name) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT head_operatorbundle_name FROM channel INNER JOIN package ON channel.name = "
      "package.default_channel AND channel.package_name = package.name INNER JOIN channel_entry "
      "on channel.package_name = channel_entry.package_name WHERE "
      "channel_entry.operatorbundle_name = ? LIMIT 1"));
  stmt.bind(1, name);
  if (!OPM_TRY(stmt.step())) {
    return util::fail(Errc::invalid, fmt::format("error getting default channel head for {}: "
                                                 "sql: no rows in result set",
                                                 name));
  }
  auto head = stmt.text(0);
  if (!head || head->empty()) {
    return util::fail(Errc::invalid, fmt::format("invalid default channel head '{}' for {}",
                                                 head.value_or(""), name));
  }
  return *head;
}

Result<std::map<std::string, TailBundle>> tail_of(Connection& db, const std::string& name) {
  auto head = OPM_TRY(default_channel_head(db, name));
  auto stmt = OPM_TRY(db.prepare(k_tail_query));
  stmt.bind(1, name);
  std::map<std::string, TailBundle> tail;
  while (OPM_TRY(stmt.step())) {
    auto bundle = stmt.text_or_empty(0);
    if (bundle.empty()) {
      return util::fail(Errc::invalid, fmt::format("invalid tail bundle {{ false}} for {}", name));
    }
    if (bundle == head) {
      return util::fail(Errc::not_allowed, std::string(k_default_channel_removal));
    }
    tail[bundle] = {split_commas(stmt.text(1)), split_commas(stmt.text(2)),
                    split_commas(stmt.text(3))};
  }
  return tail;
}

Result<void> run_with(Connection& db, std::string_view sql,
                      const std::vector<std::string>& values) {
  auto stmt = OPM_TRY(db.prepare(sql));
  for (std::size_t i = 0; i < values.size(); ++i) {
    stmt.bind(static_cast<int>(i + 1), values[i]);
  }
  return stmt.run();
}

// Drops the entries of `bundle` in the channels of `deprecated`, and the links to them.
Result<void> remove_shared_entries(Connection& db, const std::string& bundle,
                                   const std::string& deprecated) {
  OPM_TRY(run_with(db,
                   "UPDATE channel_entry SET replaces=NULL WHERE replaces IN (SELECT entry_id FROM "
                   "channel_entry WHERE operatorbundle_name = ? AND channel_name IN (SELECT "
                   "channel_name FROM channel_entry WHERE operatorbundle_name = ?))",
                   {bundle, deprecated}));
  return run_with(db,
                  "DELETE FROM channel_entry WHERE operatorbundle_name = ? AND channel_name IN "
                  "(SELECT channel_name FROM channel_entry WHERE operatorbundle_name = ?)",
                  {bundle, deprecated});
}

// True when every channel of `t` is one of the deprecated bundle's and everything replacing it
// is inside the tail: then nothing else reaches it and it can go.
bool truncatable(const TailBundle& t, const std::set<std::string>& head_channels,
                 const std::map<std::string, TailBundle>& tail) {
  if (t.channels.size() > head_channels.size()) {
    return false;
  }
  for (const auto& c : t.channels) {
    if (!head_channels.contains(c)) {
      return false;
    }
  }
  return std::all_of(t.replaced_by.begin(), t.replaced_by.end(),
                     [&](const std::string& b) { return tail.contains(b); });
}

Result<void> truncate_tail(Connection& db, const std::string& name,
                           const std::map<std::string, TailBundle>& tail) {
  std::set<std::string> head_channels;
  if (auto it = tail.find(name); it != tail.end()) {
    head_channels.insert(it->second.channels.begin(), it->second.channels.end());
  }
  std::deque<std::string> queue{name};
  std::set<std::string> seen{name};
  for (; !queue.empty(); queue.pop_front()) {
    const std::string bundle = queue.front();
    auto it = tail.find(bundle);
    if (it == tail.end()) {
      continue;
    }
    for (const auto& r : it->second.replaces) {
      if (seen.insert(r).second) {
        queue.push_back(r);
      }
    }
    if (bundle == name) {
      continue;
    }
    OPM_TRY(remove_shared_entries(db, bundle, name));
    if (truncatable(it->second, head_channels, tail)) {
      OPM_TRY(remove_bundle_rows(db, bundle));
    }
  }
  return {};
}

} // namespace

Result<void> deprecate_bundle(Connection& db, const std::string& path) {
  auto tx = OPM_TRY(Transaction::begin(db));
  auto find = OPM_TRY(db.prepare("SELECT name, version FROM operatorbundle WHERE bundlepath=? "
                                 "LIMIT 1"));
  find.bind(1, path);
  if (!OPM_TRY(find.step()) || find.is_null(0) || find.is_null(1)) {
    return util::fail(Errc::not_found, "Bundle image not in database");
  }
  auto name = find.text_or_empty(0);
  auto version = find.text_or_empty(1);
  find.reset();
  auto tail = OPM_TRY(tail_of(db, name));
  OPM_TRY(truncate_tail(db, name, tail));
  OPM_TRY(
      run_with(db, "UPDATE channel_entry SET replaces=NULL WHERE operatorbundle_name=?", {name}));
  OPM_TRY(run_with(db, "DELETE FROM channel WHERE head_operatorbundle_name=?", {name}));
  auto prop = OPM_TRY(
      db.prepare("insert into properties(type, value, operatorbundle_name, operatorbundle_version, "
                 "operatorbundle_path) values(?, ?, ?, ?, ?)"));
  prop.bind(1, "olm.deprecated").bind(2, "{}").bind(3, name);
  prop.bind_optional(4, version.empty() ? std::nullopt : std::optional(version));
  prop.bind_optional(5, path.empty() ? std::nullopt : std::optional(path));
  OPM_TRY(prop.run());
  OPM_TRY(run_with(db, "INSERT OR REPLACE INTO deprecated(operatorbundle_name) VALUES(?)", {name}));
  OPM_TRY(remove_bundles_of_vanished_packages(db));
  return tx.commit();
}

Result<std::string> channel_head_image(Connection& db, const std::string& package,
                                       const std::string& channel) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT bundlepath FROM operatorbundle INNER JOIN channel ON "
      "channel.head_operatorbundle_name = operatorbundle.name WHERE channel.package_name = ? AND "
      "channel.name = ?"));
  stmt.bind(1, package).bind(2, channel);
  return OPM_TRY(stmt.step()) ? stmt.text_or_empty(0) : std::string();
}

Result<std::string> package_of_default_head(Connection& db, const std::string& path) {
  auto stmt = OPM_TRY(db.prepare(
      "SELECT package_name FROM package, channel WHERE channel.package_name == package.name AND "
      "package.default_channel == channel.name AND channel.head_operatorbundle_name = (SELECT "
      "name FROM operatorbundle WHERE bundlepath=? LIMIT 1)"));
  stmt.bind(1, path);
  return OPM_TRY(stmt.step()) ? stmt.text_or_empty(0) : std::string();
}

} // namespace opm::sqlite
