#pragma once

#include "serve/backend.hpp"
#include "sqlite/query.hpp"

// `opm registry serve`'s backend: every call queries the index database, as upstream's
// SQLQuerier does.
namespace opm::serve {

class SqliteBackend final : public Backend {
public:
  explicit SqliteBackend(sqlite::Querier& querier) : m_querier(querier) {}

  Result<std::vector<std::string>> package_names() const override;
  Result<api::Package> package(std::string_view name) const override;
  Result<BundleBytes> bundle(std::string_view pkg, std::string_view channel,
                             std::string_view csv) const override;
  Result<BundleBytes> bundle_for_channel(std::string_view pkg,
                                         std::string_view channel) const override;
  Result<std::vector<api::ChannelEntry>> entries_that_replace(std::string_view csv) const override;
  Result<BundleBytes> bundle_that_replaces(std::string_view csv, std::string_view pkg,
                                           std::string_view channel) const override;
  Result<std::vector<api::ChannelEntry>> entries_that_provide(std::string_view group,
                                                              std::string_view version,
                                                              std::string_view kind) const override;
  Result<std::vector<api::ChannelEntry>>
  latest_entries_that_provide(std::string_view group, std::string_view version,
                              std::string_view kind) const override;
  Result<BundleBytes> default_bundle_that_provides(std::string_view group, std::string_view version,
                                                   std::string_view kind) const override;
  Result<std::unique_ptr<BundleList>> list_bundles() const override;

private:
  sqlite::Querier& m_querier;
};

// The api message of a queried bundle.
api::Bundle to_api_bundle(const sqlite::BundleAnswer& answer);

} // namespace opm::serve
