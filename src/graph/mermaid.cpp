#include "graph/mermaid.hpp"

#include "catalog/bundle_version.hpp"
#include "util/go_sort.hpp"
#include "util/semver.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace opm::graph {

using catalog::Channel;
using catalog::ChannelEntry;
using catalog::DeclarativeConfig;
using catalog::k_schema_bundle;
using catalog::k_schema_channel;
using catalog::k_schema_package;

namespace {

using util::semver::Version;
using VersionMap = std::unordered_map<std::string_view, Version>;

const Version& version_of(const VersionMap& versions, std::string_view name) {
  static const Version k_zero;
  auto it = versions.find(name);
  return it == versions.end() ? k_zero : it->second;
}

// The first bundle of each name gives its version, from its single olm.package property.
Result<VersionMap> bundle_versions(const DeclarativeConfig& cfg) {
  VersionMap versions;
  versions.reserve(cfg.bundles.size());
  for (const auto& b : cfg.bundles) {
    if (versions.contains(b.name)) {
      continue;
    }
    auto version = OPM_TRY(catalog::bundle_version(b));
    versions.emplace(b.name, std::move(version));
  }
  return versions;
}

// The package of the first channel listing the minimum edge; empty when none does.
std::string_view minimum_edge_package(const DeclarativeConfig& cfg, std::string_view edge) {
  if (edge.empty()) {
    return {};
  }
  for (const auto& c : cfg.channels) {
    if (!c.entries) {
      continue;
    }
    for (const auto& e : *c.entries) {
      if (e.name == edge) {
        return c.package;
      }
    }
  }
  return {};
}

bool has_edges(const ChannelEntry& e) {
  return !e.replaces.empty() || !e.skips.empty() || !e.skip_range.empty();
}

struct Filter {
  const MermaidOptions& options;
  const VersionMap& versions;
  const Version& minimum;
  std::string_view minimum_package;

  // The entries of `c` kept by the filters (in `owned` when any filter is active); false
  // when the channel is dropped.
  bool apply(const Channel& c, std::vector<ChannelEntry>& owned,
             std::span<const ChannelEntry>& entries) const {
    std::span<const ChannelEntry> all;
    if (c.entries) {
      all = *c.entries;
    }
    if (options.minimum_edge.empty() && options.package_name.empty()) {
      entries = all;
      return true;
    }
    if (!options.package_name.empty() && c.package != options.package_name) {
      return false;
    }
    if (!minimum_package.empty() && c.package != minimum_package) {
      return false;
    }
    owned.clear();
    for (const auto& ce : all) {
      if (options.minimum_edge.empty()) {
        owned.push_back(ce);
      } else if (ce.name == options.minimum_edge) {
        ChannelEntry floor;
        floor.name = ce.name;
        owned.push_back(std::move(floor));
      } else {
        keep_above_minimum(ce, owned);
      }
    }
    entries = owned;
    return !owned.empty();
  }

  void keep_above_minimum(const ChannelEntry& ce, std::vector<ChannelEntry>& owned) const {
    ChannelEntry kept;
    kept.name = ce.name;
    if (!ce.replaces.empty() && version_of(versions, ce.replaces) >= minimum) {
      kept.replaces = ce.replaces;
    }
    for (const auto& s : ce.skips) {
      if (version_of(versions, s) >= minimum) {
        kept.skips.push_back(s);
      }
    }
    if (!ce.skip_range.empty()) {
      auto range = util::semver::parse_range(ce.skip_range);
      if (range && range->contains(minimum)) {
        kept.skip_range = ce.skip_range;
      }
    }
    if (has_edges(kept) || (!has_edges(ce) && version_of(versions, ce.name) >= minimum)) {
      owned.push_back(std::move(kept));
    }
  }
};

struct Deprecated {
  std::unordered_set<std::string_view> packages;
  std::unordered_set<std::string_view> channels; // by name only, as upstream
  std::unordered_set<std::string_view> bundles;  // by name only, as upstream

  explicit Deprecated(const DeclarativeConfig& cfg) {
    for (const auto& d : cfg.deprecations) {
      if (!d.entries) {
        continue;
      }
      for (const auto& e : *d.entries) {
        if (e.reference.schema == k_schema_package) {
          packages.insert(d.package);
        } else if (e.reference.schema == k_schema_channel) {
          channels.insert(e.reference.name);
        } else if (e.reference.schema == k_schema_bundle) {
          bundles.insert(e.reference.name);
        }
      }
    }
  }
};

// `<channelID>-<name>["<name>"]`
void append_node(std::string& out, std::string_view channel_id, std::string_view name) {
  out += channel_id;
  out += '-';
  out += name;
  out += '[';
  out += util::go_quote(name);
  out += ']';
}

void append_edge(std::string& out, std::string_view channel_id, std::string_view from,
                 std::string_view label, std::string_view to) {
  out += "      ";
  append_node(out, channel_id, from);
  out += "-- ";
  out += label;
  out += " --> ";
  append_node(out, channel_id, to);
  out += '\n';
}

// Everything gathered while walking the channels, printed after the packages.
struct Decorations {
  std::string_view deprecated_package;
  std::vector<std::string> deprecated_channel_ids;
  std::vector<std::string> deprecated;
  std::vector<std::string> deprecated_skipped;
  std::vector<std::string> skipped;
  std::vector<std::size_t> skipped_links;
  std::size_t link = 0;
};

class ChannelWriter {
public:
  ChannelWriter(const MermaidOptions& options, const VersionMap& versions,
                const Deprecated& deprecated, Decorations& decorations, std::ostream& warnings)
      : m_options(options), m_versions(versions), m_deprecated(deprecated),
        m_decorations(decorations), m_warnings(warnings) {}

  void write(const Channel& c, std::span<const ChannelEntry> entries, std::string& out) {
    std::string channel_id = c.package + "-" + c.name;
    out += "    %% channel ";
    out += util::go_quote(c.name);
    out += "\n    subgraph ";
    out += channel_id;
    out += '[';
    out += util::go_quote(c.name);
    out += "]\n";
    if (m_deprecated.packages.contains(c.package)) {
      m_decorations.deprecated_package = c.package;
    }
    if (m_deprecated.channels.contains(c.name)) {
      m_decorations.deprecated_channel_ids.push_back(channel_id);
    }

    std::vector<const ChannelEntry*> sorted;
    sorted.reserve(entries.size());
    for (const auto& e : entries) {
      sorted.push_back(&e);
    }
    util::go_sort_slice(sorted, [this](const auto* a, const auto* b) {
      return version_of(m_versions, a->name) > version_of(m_versions, b->name);
    });

    m_skipped.clear();
    for (const auto* ce : sorted) {
      write_entry(c, channel_id, *ce, entries, out);
    }
    out += "    end\n";
  }

private:
  void write_entry(const Channel& c, const std::string& channel_id, const ChannelEntry& ce,
                   std::span<const ChannelEntry> entries, std::string& out) {
    std::string entry_id = channel_id + "-" + ce.name;
    out += "      ";
    append_node(out, channel_id, ce.name);
    out += '\n';

    bool deprecated = m_deprecated.bundles.contains(ce.name);
    bool skipped = m_skipped.contains(ce.name);
    if (deprecated && skipped) {
      m_decorations.deprecated_skipped.push_back(std::move(entry_id));
    } else if (deprecated) {
      m_decorations.deprecated.push_back(std::move(entry_id));
    } else if (skipped) {
      m_decorations.skipped.push_back(std::move(entry_id));
    }

    for (const auto& s : ce.skips) {
      append_edge(out, channel_id, s, "skip", ce.name);
      if (m_options.draw_v0_semantics && !m_skipped.insert(s).second) {
        m_decorations.skipped_links.push_back(m_decorations.link);
      }
      ++m_decorations.link;
    }
    if (!ce.skip_range.empty()) {
      auto range = util::semver::parse_range(ce.skip_range);
      if (range) {
        std::string label = "\"skipRange(" + ce.skip_range + ")\"";
        for (const auto& other : entries) {
          if (range->contains(version_of(m_versions, other.name))) {
            append_edge(out, channel_id, other.name, label, ce.name);
            mark_if_skipped(ce.name);
          }
        }
      } else {
        m_warnings << "warning: ignoring invalid SkipRange for package/edge "
                   << util::go_quote(c.package) << '/' << util::go_quote(ce.name) << ": "
                   << range.error().message() << '\n';
      }
    }
    // Replaces comes last: whether it is drawn as skipped depends on the skips above.
    if (!ce.replaces.empty()) {
      append_edge(out, channel_id, ce.replaces, "replace", ce.name);
      mark_if_skipped(ce.name);
    }
  }

  void mark_if_skipped(std::string_view name) {
    if (m_options.draw_v0_semantics && m_skipped.contains(name)) {
      m_decorations.skipped_links.push_back(m_decorations.link);
    }
    ++m_decorations.link;
  }

  const MermaidOptions& m_options;
  const VersionMap& m_versions;
  const Deprecated& m_deprecated;
  Decorations& m_decorations;
  std::ostream& m_warnings;
  std::set<std::string_view> m_skipped; // skip targets seen so far in this channel
};

void write_class(std::ostream& out, std::vector<std::string>& ids, std::string_view name) {
  if (ids.empty()) {
    return;
  }
  std::sort(ids.begin(), ids.end());
  out << "class " << util::join(ids, ",") << ' ' << name << '\n';
}

} // namespace

Result<void> write_mermaid(const DeclarativeConfig& cfg, const MermaidOptions& options,
                           std::ostream& out, std::ostream& warnings) {
  auto versions = OPM_TRY(bundle_versions(cfg));
  Version minimum;
  if (!options.minimum_edge.empty()) {
    auto it = versions.find(options.minimum_edge);
    if (it == versions.end()) {
      return util::fail(Errc::invalid, fmt::format("unknown minimum edge name: {}",
                                                   util::go_quote(options.minimum_edge)));
    }
    minimum = it->second;
  }

  std::vector<const Channel*> channels;
  channels.reserve(cfg.channels.size());
  for (const auto& c : cfg.channels) {
    channels.push_back(&c);
  }
  util::go_sort_slice(channels,
                      [](const Channel* a, const Channel* b) { return a->name < b->name; });

  Filter filter{options, versions, minimum, minimum_edge_package(cfg, options.minimum_edge)};
  Deprecated deprecated(cfg);
  Decorations decorations;
  ChannelWriter writer(options, versions, deprecated, decorations, warnings);
  std::map<std::string_view, std::string> packages;
  std::vector<ChannelEntry> owned;
  for (const auto* c : channels) {
    std::span<const ChannelEntry> entries;
    if (filter.apply(*c, owned, entries)) {
      writer.write(*c, entries, packages[c->package]);
    }
  }

  out << "graph LR\n"
         "  classDef deprecated fill:#E8960F\n"
         "  classDef skipped stroke:#FF0000,stroke-width:4px\n"
         "  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px\n";
  for (const auto& [name, text] : packages) {
    std::string quoted = util::go_quote(name);
    out << "  %% package " << quoted << "\n  subgraph " << quoted << '\n' << text << "  end\n";
  }
  if (!decorations.deprecated_package.empty()) {
    out << "style " << decorations.deprecated_package << " fill:#989695\n";
  }
  for (const auto& id : decorations.deprecated_channel_ids) {
    out << "style " << id << " fill:#DCD0FF\n";
  }
  write_class(out, decorations.deprecated, "deprecated");
  write_class(out, decorations.deprecated_skipped, "deprecatedskipped");
  write_class(out, decorations.skipped, "skipped");
  if (!decorations.skipped_links.empty()) {
    out << "linkStyle ";
    for (std::size_t i = 0; i < decorations.skipped_links.size(); ++i) {
      out << (i == 0 ? "" : ",") << decorations.skipped_links[i];
    }
    out << " stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;\n";
  }
  return {};
}

} // namespace opm::graph
