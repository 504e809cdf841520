#pragma once

#include "catalog/declcfg.hpp"
#include "filter/config.hpp"
#include "util/error.hpp"

#include <functional>
#include <string>

// `opm alpha filter`: a catalog cut down to the packages, channels and versions a
// configuration names, following upstream's FilterConfiguration design, so that the
// result stays valid and every kept bundle stays reachable by upgrades.
namespace opm::filter {

struct Options {
  // Each channel keeps only its head (after any version range): the smallest installable
  // catalog.
  bool keep_heads_only = false;
  // Told about bundles kept outside a channel's version range because the range's bundles
  // upgrade through them.
  std::function<void(const std::string&)> warn{};
};

// Filters `cfg` in place. Objects kept untouched stay as they were; a channel loses the
// entries it no longer has, a package may get the configured default channel, a
// deprecation loses entries naming what is gone (and goes when none is left). Fails, with
// nothing kept, for a package or channel the catalog does not have, a default channel
// filtered away without one configured, a version range that keeps nothing, or a channel
// whose upgrade graph cannot be followed (several heads, a cycle). Returns the packages,
// channels, bundles, deprecations and others cut away, for the caller to free when it likes.
Result<catalog::DeclarativeConfig> apply(const Config& config, const Options& options,
                                         catalog::DeclarativeConfig& cfg);

} // namespace opm::filter
