#pragma once

#include "util/error.hpp"

#include <string>
#include <vector>

// Rewriting a package's channels from their heads along replaces and skips (upstream
// v1.26.5's replaces-mode loading).
namespace opm::sqlite {

class Connection;

struct ChannelHead {
  std::string channel;
  std::string head;
};

struct PackageManifest {
  std::string package;
  std::string default_channel;
  std::vector<ChannelHead> channels; // in the order their entries are written
};

// Replace the package's package, channel and channel_entry rows by the graph reachable from
// each channel head along replaces and skips, in one transaction. The graph errors are
// collected (`Invalid bundle <head>, replaces nonexistent bundle <b>`, `Cycle detected, ...`,
// `no default channel specified for <p>`) and the whole change is rolled back when any occurs.
Result<void> rebuild_package(Connection& db, const PackageManifest& manifest);

} // namespace opm::sqlite
