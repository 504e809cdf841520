#include "filter/filter.hpp"

#include "filter/channel_graph.hpp"
#include "filter/version_range.hpp"
#include "json/unmarshal.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace opm::filter {

namespace {

using Names = std::set<std::string, std::less<>>;

struct PackagePlan {
  const PackageRule* rule = nullptr;
  std::map<std::string, const ChannelRule*, std::less<>> channels; // empty: all
};

template <typename T, typename Keep> void keep_if(std::vector<T>& items, Keep keep) {
  std::erase_if(items, [&keep](const T& item) { return !keep(item); });
}

// Moves what `keep` refuses to `cut` rather than destroying it there and then: the caller
// decides when (or whether) a large catalog's cut objects are freed.
template <typename T, typename Keep>
void set_aside(std::vector<T>& items, std::vector<T>& cut, Keep keep) {
  std::vector<T> kept;
  for (auto& item : items) {
    (keep(item) ? kept : cut).push_back(std::move(item));
  }
  items = std::move(kept);
}

std::string quote(std::string_view s) { return util::go_quote(s); }

// The named packages with their rules; a package named twice merges its channels (as the
// design's maps do) and takes the last default channel given.
std::map<std::string, PackagePlan, std::less<>> plan(const Config& config) {
  std::map<std::string, PackagePlan, std::less<>> out;
  for (const auto& rule : config.packages) {
    auto& p = out[rule.name];
    if (p.rule == nullptr || !rule.default_channel.empty()) {
      p.rule = &rule;
    }
    for (const auto& ch : rule.channels) {
      p.channels[ch.name] = &ch;
    }
  }
  return out;
}

// What the configuration names must be in the catalog: a misspelt name would otherwise give
// a catalog silently without it.
Result<void> check_named(const std::map<std::string, PackagePlan, std::less<>>& plans,
                         const catalog::DeclarativeConfig& cfg) {
  std::map<std::string, Names, std::less<>> channels;
  for (const auto& ch : cfg.channels) {
    channels[ch.package].insert(ch.name);
  }
  Names packages;
  for (const auto& p : cfg.packages) {
    packages.insert(p.name);
  }
  for (const auto& [name, p] : plans) {
    if (!packages.contains(name)) {
      return util::fail(Errc::not_found,
                        fmt::format("package {} is not in the catalog", quote(name)),
                        p.rule->where);
    }
    for (const auto& [channel, rule] : p.channels) {
      if (!channels[name].contains(channel)) {
        return util::fail(Errc::not_found,
                          fmt::format("package {} has no channel {}", quote(name), quote(channel)));
      }
    }
  }
  return {};
}

Result<void> set_default_channel(catalog::Package& pkg, const PackageRule& rule,
                                 const Names& channels) {
  auto fail = [&pkg, &rule](std::string why) {
    return util::fail(Errc::invalid,
                      fmt::format("invalid default channel configuration for package {}: {}",
                                  quote(pkg.name), why),
                      rule.where);
  };
  if (!rule.default_channel.empty()) {
    if (!channels.contains(rule.default_channel)) {
      return fail(
          fmt::format("specified default channel override {} does not exist in the filtered output",
                      quote(rule.default_channel)));
    }
    pkg.default_channel = rule.default_channel;
    return {};
  }
  if (!pkg.default_channel.empty() && !channels.contains(pkg.default_channel)) {
    return fail(fmt::format("the default channel {} was filtered out, a new default channel "
                            "must be configured for this package",
                            quote(pkg.default_channel)));
  }
  return {};
}

// The olm.package version of each bundle of `package`.
Result<Versions> versions_of(const catalog::DeclarativeConfig& cfg, std::string_view package) {
  Versions out;
  for (const auto& b : cfg.bundles) {
    if (b.package != package) {
      continue;
    }
    auto prop = std::ranges::find(b.properties, catalog::k_prop_package, &catalog::Property::type);
    if (prop == b.properties.end()) {
      return util::fail(Errc::invalid,
                        fmt::format("bundle {} in package {} has no package property",
                                    quote(b.name), quote(b.package)),
                        b.where);
    }
    const Json* version = json::find_member(prop->value, "version");
    auto v = util::semver::parse(
        version != nullptr && version->is_string() ? version->get<std::string>() : std::string());
    if (!v) {
      return std::unexpected(std::move(v)
                                 .error()
                                 .wrap(fmt::format("bundle {} version", quote(b.name)))
                                 .located(b.where));
    }
    out.emplace(b.name, std::move(*v));
  }
  return out;
}

struct ChannelCut {
  const ChannelRule* rule = nullptr; // null: the whole channel
  bool heads_only = false;
};

Error about_channel(Error e, const catalog::Channel& ch) {
  return std::move(e)
      .wrap(fmt::format("package {} channel {}", quote(ch.package), quote(ch.name)))
      .located(ch.where);
}

// Logs a bundle kept outside the range, in the design's words.
auto outside_range_warning(const ChannelRule& rule, const Options& options) {
  return [&rule, &options](const std::string& bundle, const util::semver::Version* v) {
    if (!options.warn) {
      return;
    }
    options.warn(v == nullptr
                     ? fmt::format("including bundle {}: it is unversioned but is required to "
                                   "ensure inclusion of all bundles in the range",
                                   quote(bundle))
                     : fmt::format("including bundle {} with version {}: it falls outside the "
                                   "specified range of {} but is required to ensure inclusion "
                                   "of all bundles in the range",
                                   quote(bundle), quote(v->to_string()),
                                   quote(rule.version_range)));
  };
}

// The entries of `ch` its rule's version range keeps (never none).
Result<Names> cut_to_range(const catalog::DeclarativeConfig& cfg, const catalog::Channel& ch,
                           const ChannelGraph& graph, const ChannelRule& rule,
                           const Options& options) {
  auto range = parse_version_range(rule.version_range);
  if (!range) {
    return std::unexpected(
        std::move(range)
            .error()
            .wrap(fmt::format("package {} channel {}: error parsing version range",
                              quote(ch.package), quote(ch.name)))
            .located(rule.where));
  }
  auto versions = OPM_TRY(versions_of(cfg, ch.package));
  auto kept = graph.keep_in_range(*range, versions, outside_range_warning(rule, options));
  if (kept.empty()) {
    return util::fail(Errc::invalid,
                      fmt::format("package {} channel {} has version range {} that results in "
                                  "an empty channel",
                                  quote(ch.package), quote(ch.name), quote(rule.version_range)),
                      rule.where);
  }
  return Names(kept.begin(), kept.end());
}

// The head of `ch` cut down to `kept`: the highest kept bundle on the chain.
Result<std::string> head_of(const catalog::Channel& ch, const Names& kept) {
  catalog::Channel narrowed = ch;
  keep_if(*narrowed.entries, [&kept](const auto& e) { return kept.contains(e.name); });
  auto graph = ChannelGraph::build(narrowed);
  if (!graph) {
    return std::unexpected(about_channel(std::move(graph).error(), ch));
  }
  return graph->head();
}

// The entries one channel keeps.
Result<Names> cut_channel(const catalog::DeclarativeConfig& cfg, const catalog::Channel& ch,
                          const ChannelCut& cut, const Options& options) {
  bool ranged = cut.rule != nullptr && !cut.rule->version_range.empty();
  if (!ranged && !cut.heads_only) {
    Names all;
    for (const auto& e : ch.entries.value_or(std::vector<catalog::ChannelEntry>{})) {
      all.insert(e.name);
    }
    return all;
  }
  auto graph = ChannelGraph::build(ch);
  if (!graph) {
    return std::unexpected(about_channel(std::move(graph).error(), ch));
  }
  if (!ranged) {
    return Names{graph->head()};
  }
  auto kept = OPM_TRY(cut_to_range(cfg, ch, *graph, *cut.rule, options));
  if (!cut.heads_only) {
    return kept;
  }
  auto head = OPM_TRY(head_of(ch, kept));
  return Names{std::move(head)};
}

void filter_deprecations(catalog::DeclarativeConfig& cfg,
                         const std::map<std::string, Names, std::less<>>& bundles,
                         const std::map<std::string, Names, std::less<>>& channels) {
  auto has = [](const auto& sets, const std::string& package, const std::string& name) {
    auto found = sets.find(package);
    return found != sets.end() && found->second.contains(name);
  };
  // A deprecation whose every entry named something gone goes with them.
  std::erase_if(cfg.deprecations, [&](catalog::Deprecation& d) {
    if (!d.entries || d.entries->empty()) {
      return false;
    }
    keep_if(*d.entries, [&](const catalog::DeprecationEntry& e) {
      if (e.reference.schema == catalog::k_schema_bundle) {
        return has(bundles, d.package, e.reference.name);
      }
      if (e.reference.schema == catalog::k_schema_channel) {
        return has(channels, d.package, e.reference.name);
      }
      return true;
    });
    return d.entries->empty();
  });
}

} // namespace

Result<catalog::DeclarativeConfig> apply(const Config& config, const Options& options,
                                         catalog::DeclarativeConfig& cfg) {
  auto plans = plan(config);
  OPM_TRY(check_named(plans, cfg));
  catalog::DeclarativeConfig cut_away;
  auto named = [&plans](std::string_view package) { return plans.contains(package); };
  set_aside(cfg.packages, cut_away.packages,
            [&](const catalog::Package& p) { return named(p.name); });
  set_aside(cfg.bundles, cut_away.bundles,
            [&](const catalog::Bundle& b) { return named(b.package); });
  set_aside(cfg.deprecations, cut_away.deprecations,
            [&](const catalog::Deprecation& d) { return named(d.package); });
  set_aside(cfg.others, cut_away.others,
            [&](const catalog::Meta& m) { return m.package.empty() || named(m.package); });
  set_aside(cfg.channels, cut_away.channels, [&](const catalog::Channel& ch) {
    auto p = plans.find(ch.package);
    return p != plans.end() && (p->second.channels.empty() || p->second.channels.contains(ch.name));
  });

  std::map<std::string, Names, std::less<>> channels;
  for (const auto& ch : cfg.channels) {
    channels[ch.package].insert(ch.name);
  }
  for (auto& pkg : cfg.packages) {
    OPM_TRY(set_default_channel(pkg, *plans.at(pkg.name).rule, channels[pkg.name]));
  }

  std::map<std::string, Names, std::less<>> bundles;
  for (auto& ch : cfg.channels) {
    const auto& p = plans.at(ch.package);
    auto rule = p.channels.find(ch.name);
    ChannelCut cut{.rule = rule == p.channels.end() ? nullptr : rule->second,
                   .heads_only = options.keep_heads_only};
    Names keep = OPM_TRY(cut_channel(cfg, ch, cut, options));
    if (ch.entries && keep.size() != ch.entries->size()) {
      keep_if(*ch.entries, [&keep](const auto& e) { return keep.contains(e.name); });
    }
    bundles[ch.package].insert(keep.begin(), keep.end());
  }
  set_aside(cfg.bundles, cut_away.bundles,
            [&](const catalog::Bundle& b) { return bundles[b.package].contains(b.name); });
  filter_deprecations(cfg, bundles, channels);
  return cut_away;
}

} // namespace opm::filter
