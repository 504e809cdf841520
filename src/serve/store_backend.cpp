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

} // namespace

Result<BundleBytes> StoredAnswers::bundle(Result<const IndexEntry*> entry) {
  if (!entry) {
    return std::unexpected(entry.error());
  }
  StoredPieces pieces;
  (*entry)->stored.append_pieces(pieces);
  return BundleBytes(std::move(pieces));
}

StoreBackend::StoreBackend(const Store& store)
    : QueryBackend(store), m_package_names(store.package_names()),
      m_list_order(list_order(store.index())) {}

Result<std::vector<std::string>> StoreBackend::package_names() const { return m_package_names; }

Result<api::Package> StoreBackend::package(std::string_view name) const {
  return m_source.package(name);
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
