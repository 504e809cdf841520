#include "serve/store_backend.hpp"

#include <algorithm>
#include <tuple>

namespace opm::serve {

namespace {

std::vector<const IndexEntry*> list_order(const PackageIndex& index) {
  std::vector<const IndexEntry*> entries;
  for (const auto& [pkg_name, pkg] : index) {
    for (const auto& [ch_name, ch] : pkg.channels) {
      for (const auto& [name, e] : ch.entries) {
        entries.push_back(&e);
      }
    }
  }
  auto key = [](const IndexEntry* e) {
    return std::tie(e->channel_name, e->package_name, e->name);
  };
  std::ranges::sort(entries,
                    [&](const IndexEntry* a, const IndexEntry* b) { return key(a) < key(b); });
  return entries;
}

// The entry's stored bytes, which live as long as the server.
Result<BundleBytes> stored(Result<const IndexEntry*> entry) {
  if (!entry) {
    return std::unexpected(entry.error());
  }
  StoredPieces pieces;
  (*entry)->stored.append_pieces(pieces);
  return BundleBytes(std::move(pieces));
}

} // namespace

StoreBackend::StoreBackend(const Store& store)
    : m_store(store), m_package_names(store.package_names()),
      m_list_order(list_order(store.index())) {}

Result<std::vector<std::string>> StoreBackend::package_names() const { return m_package_names; }

Result<api::Package> StoreBackend::package(std::string_view name) const {
  return m_store.package(name);
}

Result<BundleBytes> StoreBackend::bundle(std::string_view pkg, std::string_view channel,
                                         std::string_view csv) const {
  return stored(m_store.bundle(pkg, channel, csv));
}

Result<BundleBytes> StoreBackend::bundle_for_channel(std::string_view pkg,
                                                     std::string_view channel) const {
  return stored(m_store.bundle_for_channel(pkg, channel));
}

Result<std::vector<api::ChannelEntry>>
StoreBackend::entries_that_replace(std::string_view csv) const {
  return m_store.entries_that_replace(csv);
}

Result<BundleBytes> StoreBackend::bundle_that_replaces(std::string_view csv, std::string_view pkg,
                                                       std::string_view channel) const {
  return stored(m_store.bundle_that_replaces(csv, pkg, channel));
}

Result<std::vector<api::ChannelEntry>>
StoreBackend::entries_that_provide(std::string_view group, std::string_view version,
                                   std::string_view kind) const {
  return m_store.entries_that_provide(group, version, kind);
}

Result<std::vector<api::ChannelEntry>>
StoreBackend::latest_entries_that_provide(std::string_view group, std::string_view version,
                                          std::string_view kind) const {
  return m_store.latest_entries_that_provide(group, version, kind);
}

Result<BundleBytes> StoreBackend::default_bundle_that_provides(std::string_view group,
                                                               std::string_view version,
                                                               std::string_view kind) const {
  return stored(m_store.default_bundle_that_provides(group, version, kind));
}

namespace {

class StoreBundleList final : public BundleList {
public:
  explicit StoreBundleList(const std::vector<const IndexEntry*>& order) : m_order(order) {}

  bool next(std::string& out) override {
    if (m_next == m_order.size()) {
      return false;
    }
    out.clear();
    Store::append_listing(*m_order[m_next++], out);
    return true;
  }

private:
  const std::vector<const IndexEntry*>& m_order;
  std::size_t m_next = 0;
};

} // namespace

Result<std::unique_ptr<BundleList>> StoreBackend::list_bundles() const {
  return std::make_unique<StoreBundleList>(m_list_order);
}

} // namespace opm::serve
