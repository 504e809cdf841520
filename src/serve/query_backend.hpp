#pragma once

#include "serve/backend.hpp"

#include <string_view>
#include <vector>

namespace opm::serve {

// A Backend whose bundle and channel-entry answers are the same-named queries of `Source`
// (the loaded Store, or an index database's Querier), turned into what the server sends by
// `Answers`: `Answers::bundle` makes a bundle answer's bytes, `Answers::entries` the api
// channel entries. Package answers and the listing are the backend's own.
template <typename Source, typename Answers> class QueryBackend : public Backend {
public:
  explicit QueryBackend(Source& source) : m_source(source) {}

  Result<BundleBytes> bundle(std::string_view pkg, std::string_view channel,
                             std::string_view csv) const final {
    return Answers::bundle(m_source.bundle(pkg, channel, csv));
  }
  Result<BundleBytes> bundle_for_channel(std::string_view pkg,
                                         std::string_view channel) const final {
    return Answers::bundle(m_source.bundle_for_channel(pkg, channel));
  }
  Result<std::vector<api::ChannelEntry>> entries_that_replace(std::string_view csv) const final {
    return Answers::entries(m_source.entries_that_replace(csv));
  }
  Result<BundleBytes> bundle_that_replaces(std::string_view csv, std::string_view pkg,
                                           std::string_view channel) const final {
    return Answers::bundle(m_source.bundle_that_replaces(csv, pkg, channel));
  }
  Result<std::vector<api::ChannelEntry>> entries_that_provide(std::string_view group,
                                                              std::string_view version,
                                                              std::string_view kind) const final {
    return Answers::entries(m_source.entries_that_provide(group, version, kind));
  }
  Result<std::vector<api::ChannelEntry>>
  latest_entries_that_provide(std::string_view group, std::string_view version,
                              std::string_view kind) const final {
    return Answers::entries(m_source.latest_entries_that_provide(group, version, kind));
  }
  Result<BundleBytes> default_bundle_that_provides(std::string_view group, std::string_view version,
                                                   std::string_view kind) const final {
    return Answers::bundle(m_source.default_bundle_that_provides(group, version, kind));
  }

protected:
  Source& m_source;
};

} // namespace opm::serve
