#pragma once

#include "serve/registry.pb.h"
#include "util/error.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

// What api.Registry answers from: a loaded file-based catalog (StoreBackend) or an index
// database queried per call (SqliteBackend). Every Error becomes UNKNOWN with its message.
namespace opm::serve {

// Views of bytes the backend keeps for the server's lifetime, sent one after the other.
using StoredPieces = std::vector<std::string_view>;
// One bundle answer as wire bytes: pieces the backend keeps, or bytes encoded for this call.
using BundleBytes = std::variant<StoredPieces, std::string>;

// The ListBundles messages in order, each made when the client is ready for it, so a
// listing holds one message at a time whatever the catalog's size.
class BundleList {
public:
  BundleList() = default;
  BundleList(const BundleList&) = delete;
  BundleList& operator=(const BundleList&) = delete;
  virtual ~BundleList() = default;

  // Makes the next message's wire bytes into `out` (replaced); false when there is none.
  virtual bool next(std::string& out) = 0;
};

class Backend {
public:
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  virtual ~Backend() = default;

  virtual Result<std::vector<std::string>> package_names() const = 0;
  virtual Result<api::Package> package(std::string_view name) const = 0;
  virtual Result<BundleBytes> bundle(std::string_view pkg, std::string_view channel,
                                     std::string_view csv) const = 0;
  virtual Result<BundleBytes> bundle_for_channel(std::string_view pkg,
                                                 std::string_view channel) const = 0;
  virtual Result<std::vector<api::ChannelEntry>>
  entries_that_replace(std::string_view csv) const = 0;
  virtual Result<BundleBytes> bundle_that_replaces(std::string_view csv, std::string_view pkg,
                                                   std::string_view channel) const = 0;
  virtual Result<std::vector<api::ChannelEntry>>
  entries_that_provide(std::string_view group, std::string_view version,
                       std::string_view kind) const = 0;
  virtual Result<std::vector<api::ChannelEntry>>
  latest_entries_that_provide(std::string_view group, std::string_view version,
                              std::string_view kind) const = 0;
  virtual Result<BundleBytes> default_bundle_that_provides(std::string_view group,
                                                           std::string_view version,
                                                           std::string_view kind) const = 0;
  virtual Result<std::unique_ptr<BundleList>> list_bundles() const = 0;
};

} // namespace opm::serve
