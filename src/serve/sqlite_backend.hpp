#pragma once

#include "serve/query_backend.hpp"
#include "sqlite/query.hpp"

// `opm registry serve`'s backend: every call queries the index database, as upstream's
// SQLQuerier does.
namespace opm::serve {

// A queried bundle as the bytes of its api message; queried rows as api channel entries.
struct QueriedAnswers {
  static Result<BundleBytes> bundle(Result<sqlite::BundleAnswer> answer);
  static Result<std::vector<api::ChannelEntry>>
  entries(Result<std::vector<sqlite::EntryAnswer>> rows);
};

class SqliteBackend final : public QueryBackend<sqlite::Querier, QueriedAnswers> {
public:
  using QueryBackend::QueryBackend;

  Result<std::vector<std::string>> package_names() const override;
  Result<api::Package> package(std::string_view name) const override;
  Result<std::unique_ptr<BundleList>> list_bundles() const override;
};

// The api message of a queried bundle.
api::Bundle to_api_bundle(const sqlite::BundleAnswer& answer);

} // namespace opm::serve
