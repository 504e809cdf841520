#pragma once

#include "serve/backend.hpp"
#include "serve/store.hpp"

// `opm serve`'s backend: the loaded catalog's Store, every answer a lookup.
namespace opm::serve {

class StoreBackend final : public Backend {
public:
  explicit StoreBackend(const Store& store);

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
  const Store& m_store;
  std::vector<std::string> m_package_names;
  // ListBundles order: channel name, then package name, then bundle name (byte-wise).
  std::vector<const IndexEntry*> m_list_order;
};

} // namespace opm::serve
