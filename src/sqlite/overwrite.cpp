#include "sqlite/overwrite.hpp"

#include "sqlite/connection.hpp"

#include <fmt/format.h>

#include <optional>
#include <vector>

namespace opm::sqlite {

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
