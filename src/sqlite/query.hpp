#pragma once

#include "sqlite/connection.hpp"
#include "sqlite/typed_value.hpp"
#include "util/error.hpp"

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

// The read queries `opm registry serve` answers with, one SQL query set per call, as upstream's
// pkg/sqlite/query.go runs them: rows come in SQLite's order and every message is upstream's.
// The answers are plain values; the serve job turns them into api messages.
namespace opm::sqlite {

struct Gvk {
  std::string group;
  std::string version;
  std::string kind;
  std::string plural;
};

// The fields of one api.Bundle answer; empty fields are absent from the message.
struct BundleAnswer {
  std::string csv_name;
  std::string package_name;
  std::string channel_name;
  std::string csv_json;
  std::vector<std::string> objects;
  std::string bundle_path;
  std::vector<Gvk> provided_apis;
  std::vector<Gvk> required_apis;
  std::string version;
  std::string skip_range;
  std::vector<TypedValue> dependencies;
  std::vector<TypedValue> properties;
  std::string replaces;
  std::vector<std::string> skips;
};

struct ChannelAnswer {
  std::string name;
  std::string csv_name; // the channel head
};

struct PackageAnswer {
  std::string name;
  std::string default_channel;
  std::vector<ChannelAnswer> channels;
};

struct EntryAnswer {
  std::string package_name;
  std::string channel_name;
  std::string bundle_name;
  std::string replaces;
};

// Every call takes the connection's lock: the connection is opened without SQLite's own mutex.
class Querier {
public:
  explicit Querier(Connection db) : m_db(std::move(db)) {}

  Result<std::vector<std::string>> tables();
  Result<std::vector<std::string>> package_names();
  Result<PackageAnswer> package(std::string_view name);
  Result<BundleAnswer> bundle(std::string_view pkg, std::string_view channel, std::string_view csv);
  // Only the head's name and its stored CSV.
  Result<BundleAnswer> bundle_for_channel(std::string_view pkg, std::string_view channel);
  Result<std::vector<EntryAnswer>> entries_that_replace(std::string_view csv);
  Result<BundleAnswer> bundle_that_replaces(std::string_view csv, std::string_view pkg,
                                            std::string_view channel);
  Result<std::vector<EntryAnswer>>
  entries_that_provide(std::string_view group, std::string_view version, std::string_view kind);
  Result<std::vector<EntryAnswer>> latest_entries_that_provide(std::string_view group,
                                                               std::string_view version,
                                                               std::string_view kind);
  Result<BundleAnswer> default_bundle_that_provides(std::string_view group,
                                                    std::string_view version,
                                                    std::string_view kind);
  // One answer per bundle per channel, replaces and skips set; the manifests are left out of
  // bundles that have a bundle path.
  Result<std::vector<BundleAnswer>> bundles();

private:
  std::mutex m_mutex;
  Connection m_db;
};

} // namespace opm::sqlite
