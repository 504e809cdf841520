#include "sqlite/remove.hpp"

#include "json/text.hpp"
#include "sqlite/connection.hpp"

#include <fmt/format.h>

#include <set>
#include <vector>

namespace opm::sqlite {

namespace {

Result<void> run_with(Connection& db, const char* sql, const std::string& value) {
  auto stmt = OPM_TRY(db.prepare(sql));
  stmt.bind(1, value);
  return stmt.run();
}

} // namespace

Result<void> remove_bundle_rows(Connection& db, const std::string& name) {
  for (const auto* sql : {"DELETE FROM operatorbundle WHERE operatorbundle.name=?",
                          "DELETE FROM api_provider WHERE api_provider.operatorbundle_name=?",
                          "DELETE FROM api_requirer WHERE api_requirer.operatorbundle_name=?",
                          "DELETE FROM channel_entry WHERE channel_entry.operatorbundle_name=?"}) {
    OPM_TRY(run_with(db, sql, name));
  }
  return {};
}

namespace {

Result<void> remove_package_rows(Connection& db, const std::string& package) {
  auto tx = OPM_TRY(Transaction::begin(db));
  auto names = OPM_TRY(db.prepare("SELECT DISTINCT channel_entry.operatorbundle_name FROM "
                                  "channel_entry WHERE channel_entry.package_name=?"));
  names.bind(1, package);
  std::vector<std::string> bundles;
  while (OPM_TRY(names.step())) {
    bundles.push_back(names.text_or_empty(0));
  }
  if (bundles.empty()) {
    return util::fail(Errc::not_found, "no package found for packagename " + package);
  }
  for (const auto& b : bundles) {
    OPM_TRY(remove_bundle_rows(db, b));
  }
  OPM_TRY(run_with(db, "DELETE FROM package WHERE package.name=?", package));
  OPM_TRY(run_with(db, "DELETE FROM channel WHERE package_name = ?", package));
  return tx.commit();
}

std::string package_name_of(const std::string& value) {
  auto parsed = json::text::parse(value);
  if (parsed && parsed->is_object() && parsed->contains("packageName") &&
      (*parsed)["packageName"].is_string()) {
    return (*parsed)["packageName"].get<std::string>();
  }
  return {};
}

} // namespace

Result<void> remove_package(Connection& db, const std::string& package) {
  {
    auto tx = OPM_TRY(Transaction::begin(db));
    OPM_TRY(run_with(db,
                     "DELETE FROM deprecated WHERE deprecated.operatorbundle_name IN (SELECT "
                     "DISTINCT deprecated.operatorbundle_name FROM (deprecated INNER JOIN "
                     "channel_entry ON deprecated.operatorbundle_name = "
                     "channel_entry.operatorbundle_name) WHERE channel_entry.package_name = ?)",
                     package));
    OPM_TRY(tx.commit());
  }
  OPM_TRY(remove_package_rows(db, package));
  return remove_stranded_bundles(db);
}

Result<void> remove_stranded_bundles(Connection& db) {
  auto tx = OPM_TRY(Transaction::begin(db));
  OPM_TRY(db.exec("DELETE FROM operatorbundle WHERE name NOT IN(select operatorbundle_name from "
                  "channel_entry) AND name NOT IN (SELECT operatorbundle_name FROM deprecated)"));
  OPM_TRY(remove_bundles_of_vanished_packages(db));
  return tx.commit();
}

Result<void> remove_bundles_of_vanished_packages(Connection& db) {
  std::set<std::string> known;
  auto packages = OPM_TRY(db.prepare("SELECT DISTINCT name FROM package"));
  while (OPM_TRY(packages.step())) {
    auto name = packages.text(0);
    if (!name || name->empty()) {
      return util::fail(Errc::invalid, "invalid package {  false}");
    }
    known.insert(*name);
  }
  auto props = OPM_TRY(db.prepare(
      "select distinct operatorbundle_name, value from properties where type = 'olm.package'"));
  std::vector<std::string> vanished;
  while (OPM_TRY(props.step())) {
    auto bundle = props.text_or_empty(0);
    auto value = props.text_or_empty(1);
    if (bundle.empty()) {
      return util::fail(Errc::invalid, "invalid bundle {  false}");
    }
    if (!known.contains(package_name_of(value))) {
      vanished.push_back(bundle);
    }
  }
  for (const auto& b : vanished) {
    OPM_TRY(remove_bundle_rows(db, b));
  }
  OPM_TRY(db.exec("DELETE FROM deprecated WHERE deprecated.operatorbundle_name NOT IN (SELECT "
                  "DISTINCT name FROM operatorbundle)"));
  return {};
}

} // namespace opm::sqlite
