#pragma once

#include "serve/query_backend.hpp"
#include "serve/store.hpp"

// `opm serve`'s backend: the loaded catalog's Store, every answer a lookup.
namespace opm::serve {

// A stored entry as its kept bytes, which live as long as the server; the Store's channel
// entries as they are.
struct StoredAnswers {
  static Result<BundleBytes> bundle(Result<const IndexEntry*> entry);
  static Result<std::vector<api::ChannelEntry>>
  entries(Result<std::vector<api::ChannelEntry>> entries) {
    return entries;
  }
};

class StoreBackend final : public QueryBackend<const Store, StoredAnswers> {
public:
  explicit StoreBackend(const Store& store);

  Result<std::vector<std::string>> package_names() const override;
  Result<api::Package> package(std::string_view name) const override;
  Result<std::unique_ptr<BundleList>> list_bundles() const override;

private:
  std::vector<std::string> m_package_names;
  // ListBundles order: channel name, then package name, then bundle name (byte-wise).
  std::vector<const IndexEntry*> m_list_order;
};

} // namespace opm::serve
