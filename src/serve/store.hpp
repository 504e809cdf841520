#pragma once

#include "catalog/model.hpp"
#include "serve/metas.hpp"
#include "serve/registry.pb.h"
#include "serve/stored_bundle.hpp"
#include "util/error.hpp"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

// What `opm serve` answers from: the package index (package -> channel -> entry, with each
// entry's graph edges) and one converted api.Bundle per channel entry, built once at load
// so that every rpc is a lookup. Queries follow upstream's pkg/cache/pkgs.go; where upstream
// walks Go maps (random order), names are visited in byte-wise order.
namespace opm::serve {

struct ApiKey {
  std::string group;
  std::string version;
  std::string kind;
};

struct IndexEntry {
  std::string name;
  std::string replaces;
  std::vector<std::string> skips;
  // From the entry's api.Bundle, what the queries and ListBundles look at.
  std::string package_name;
  std::string channel_name;
  std::string bundle_path;
  std::vector<ApiKey> provided_apis;
  // The entry's api.Bundle with replaces and skips cleared, as it is sent.
  StoredBundle stored;

  // The whole stored bundle, decoded.
  [[nodiscard]] api::Bundle full() const;
};

// Fills an entry from its whole api.Bundle (replaces and skips are taken from the entry),
// its manifests shared through `pool`.
void set_bundle(IndexEntry& entry, api::Bundle bundle, TextPool& pool);

struct IndexChannel {
  std::string name;
  std::string head;
  std::optional<std::string> deprecation; // the message, when deprecated
  std::map<std::string, IndexEntry, std::less<>> entries;
};

struct IndexIcon {
  std::optional<std::string> data; // decoded bytes
  std::string mediatype;
};

struct IndexPackage {
  std::string name;
  std::string description;
  std::optional<IndexIcon> icon;
  std::string default_channel;
  std::optional<std::string> deprecation;
  std::map<std::string, IndexChannel, std::less<>> channels;
};

using PackageIndex = std::map<std::string, IndexPackage, std::less<>>;

// The index of one package of a validated model: every channel's head, every entry
// converted, manifests shared through `pool`.
Result<IndexPackage> index_package(const catalog::model::Package& pkg, TextPool& pool);

// What a catalog is served from: its package index and its objects of other schemas.
struct Catalog {
  PackageIndex index;
  MetaIndex metas;
};

class Store {
public:
  explicit Store(Catalog catalog)
      : m_index(std::move(catalog.index)), m_metas(std::move(catalog.metas)) {}

  [[nodiscard]] const PackageIndex& index() const { return m_index; }
  [[nodiscard]] const MetaIndex& metas() const { return m_metas; }

  [[nodiscard]] std::vector<std::string> package_names() const;
  Result<api::Package> package(std::string_view name) const;
  Result<const IndexEntry*> bundle(std::string_view pkg, std::string_view channel,
                                   std::string_view csv) const;
  Result<const IndexEntry*> bundle_for_channel(std::string_view pkg,
                                               std::string_view channel) const;
  Result<std::vector<api::ChannelEntry>> entries_that_replace(std::string_view csv) const;
  Result<const IndexEntry*> bundle_that_replaces(std::string_view csv, std::string_view pkg,
                                                 std::string_view channel) const;
  Result<std::vector<api::ChannelEntry>> entries_that_provide(std::string_view group,
                                                              std::string_view version,
                                                              std::string_view kind) const;
  Result<std::vector<api::ChannelEntry>> latest_entries_that_provide(std::string_view group,
                                                                     std::string_view version,
                                                                     std::string_view kind) const;
  Result<const IndexEntry*> default_bundle_that_provides(std::string_view group,
                                                         std::string_view version,
                                                         std::string_view kind) const;
  // The ListBundles message of an entry (wire bytes): replaces and skips kept, manifests dropped
  // when the bundle has an image.
  static void append_listing(const IndexEntry& entry, std::string& out);
  // The stored objects of `schema` in `package` ("" for those without one), or nullptr when
  // there are none; names that are not valid keys fail (Errc::invalid) with latest's
  // "invalid custom schema query: ..." texts.
  Result<const MetaFiles*> custom_schemas(std::string_view schema, std::string_view package) const;

private:
  PackageIndex m_index;
  MetaIndex m_metas;
};

} // namespace opm::serve
