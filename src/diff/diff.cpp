#include "diff/diff.hpp"

#include "diff/find.hpp"
#include "json/writer.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>

namespace opm::diff {

namespace model = catalog::model;

namespace {

template <typename T> std::vector<T> missing_from(const std::set<T>& from, const std::set<T>& in) {
  std::vector<T> out;
  std::set_difference(from.begin(), from.end(), in.begin(), in.end(), std::back_inserter(out));
  return out;
}

template <typename Map> std::set<std::string> keys(const Map& map) {
  std::set<std::string> out;
  for (const auto& [name, _] : map) {
    out.insert(name);
  }
  return out;
}

std::set<Edge> edges_of(const model::Channel* channel) {
  std::set<Edge> out;
  if (channel == nullptr) {
    return out;
  }
  for (const auto& [name, bundle] : channel->bundles) {
    if (!bundle.replaces.empty()) {
      out.insert({name, Edge::Kind::replaces, bundle.replaces});
    }
    for (const auto& skip : bundle.skips) {
      out.insert({name, Edge::Kind::skips, skip});
    }
    if (!bundle.skip_range.empty()) {
      out.insert({name, Edge::Kind::skip_range, bundle.skip_range});
    }
  }
  return out;
}

std::set<std::string> entries_of(const model::Channel* channel) {
  return channel == nullptr ? std::set<std::string>{} : keys(channel->bundles);
}

ChannelDiff compare_channel(std::string_view name, const model::Channel* before,
                            const model::Channel* after) {
  ChannelDiff out;
  out.name = std::string(name);
  out.old_head = before ? head_name(*before) : "";
  out.new_head = after ? head_name(*after) : "";
  auto old_entries = entries_of(before);
  auto new_entries = entries_of(after);
  out.entries_added = missing_from(new_entries, old_entries);
  out.entries_removed = missing_from(old_entries, new_entries);
  auto old_edges = edges_of(before);
  auto new_edges = edges_of(after);
  out.edges_added = missing_from(new_edges, old_edges);
  out.edges_removed = missing_from(old_edges, new_edges);
  if (after != nullptr) {
    out.where = after->where;
  }
  return out;
}

// Every olm.bundle of a package, by name, from the entries of its channels.
std::map<std::string, const model::Bundle*> bundles_of(const model::Package* package) {
  std::map<std::string, const model::Bundle*> out;
  if (package == nullptr) {
    return out;
  }
  for (const auto& [_, channel] : package->channels) {
    for (const auto& [name, bundle] : channel.bundles) {
      out.emplace(name, &bundle);
    }
  }
  return out;
}

// The value, not `raw`: the same value read from a database and from a file may be spelled
// differently (escapes, member order).
std::string property_text(const catalog::Property& property) {
  return json::to_text(property.value);
}

// Each property type with its values' texts, sorted, so that order does not count.
std::map<std::string, std::vector<std::string>>
properties_by_type(std::span<const catalog::Property> properties) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& property : properties) {
    out[property.type].push_back(property_text(property));
  }
  for (auto& [_, texts] : out) {
    std::sort(texts.begin(), texts.end());
  }
  return out;
}

std::vector<std::string> changed_property_types(const model::Bundle& before,
                                                const model::Bundle& after) {
  auto old_props = properties_by_type(before.properties());
  auto new_props = properties_by_type(after.properties());
  std::set<std::string> types = keys(old_props);
  types.merge(keys(new_props));
  std::vector<std::string> out;
  for (const auto& type : types) {
    auto o = old_props.find(type);
    auto n = new_props.find(type);
    if (o == old_props.end() || n == new_props.end() || o->second != n->second) {
      out.push_back(type);
    }
  }
  return out;
}

bool same_related_images(const model::Bundle& before, const model::Bundle& after) {
  auto a = before.related_images();
  auto b = after.related_images();
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const catalog::RelatedImage& x, const catalog::RelatedImage& y) {
                      return x.name == y.name && x.image == y.image;
                    });
}

std::optional<BundleChange> compare_bundle(const model::Bundle& before,
                                           const model::Bundle& after) {
  BundleChange change{.name = after.name,
                      .old_image = before.image,
                      .new_image = after.image,
                      .property_types = changed_property_types(before, after),
                      .related_images_changed = !same_related_images(before, after),
                      .where = after.where};
  if (change.old_image == change.new_image && change.property_types.empty() &&
      !change.related_images_changed) {
    return std::nullopt;
  }
  return change;
}

using Deprecations = std::set<std::pair<std::string, std::string>>;

void add_deprecation(Deprecations& out, std::string subject, const model::Deprecation& d) {
  if (d.present) {
    out.emplace(std::move(subject), d.message);
  }
}

Deprecations deprecations_of(const model::Package* package) {
  Deprecations out;
  if (package == nullptr) {
    return out;
  }
  add_deprecation(out, "package", package->deprecation);
  for (const auto& [name, channel] : package->channels) {
    add_deprecation(out, "channel " + name, channel.deprecation);
  }
  for (const auto& [name, bundle] : bundles_of(package)) {
    add_deprecation(out, "bundle " + name, bundle->deprecation);
  }
  return out;
}

std::vector<DeprecationChange>
as_changes(const std::vector<std::pair<std::string, std::string>>& v) {
  std::vector<DeprecationChange> out;
  for (const auto& [subject, message] : v) {
    out.push_back({subject, message});
  }
  return out;
}

void compare_bundles(PackageDiff& out, const model::Package* before, const model::Package* after) {
  auto old_bundles = bundles_of(before);
  auto new_bundles = bundles_of(after);
  out.bundles_added = missing_from(keys(new_bundles), keys(old_bundles));
  out.bundles_removed = missing_from(keys(old_bundles), keys(new_bundles));
  for (const auto& [name, bundle] : new_bundles) {
    auto it = old_bundles.find(name);
    if (it == old_bundles.end()) {
      continue;
    }
    if (auto change = compare_bundle(*it->second, *bundle)) {
      out.bundles_changed.push_back(std::move(*change));
    }
  }
}

void compare_channels(PackageDiff& out, const model::Package* before, const model::Package* after) {
  auto old_channels = before ? keys(before->channels) : std::set<std::string>{};
  auto new_channels = after ? keys(after->channels) : std::set<std::string>{};
  out.channels_added = missing_from(new_channels, old_channels);
  out.channels_removed = missing_from(old_channels, new_channels);
  // A removed channel is listed as such; its entries and edges went with it.
  for (const auto& name : new_channels) {
    auto diff = compare_channel(name, before ? find_in(before->channels, name) : nullptr,
                                &after->channels.find(name)->second);
    if (!diff.empty()) {
      out.channels.push_back(std::move(diff));
    }
  }
}

bool unchanged(const PackageDiff& d) {
  return d.status == PackageDiff::Status::changed &&
         d.old_default_channel == d.new_default_channel && d.channels_added.empty() &&
         d.channels_removed.empty() && d.bundles_added.empty() && d.bundles_removed.empty() &&
         d.bundles_changed.empty() && d.channels.empty() && d.deprecations_added.empty() &&
         d.deprecations_removed.empty();
}

PackageDiff compare_package(std::string_view name, const model::Package* before,
                            const model::Package* after) {
  PackageDiff out;
  out.name = std::string(name);
  out.status = before == nullptr  ? PackageDiff::Status::added
               : after == nullptr ? PackageDiff::Status::removed
                                  : PackageDiff::Status::changed;
  out.old_default_channel = before ? before->default_channel : "";
  out.new_default_channel = after ? after->default_channel : "";
  if (after != nullptr) {
    out.where = after->where;
  }
  compare_channels(out, before, after);
  compare_bundles(out, before, after);
  auto old_deprecations = deprecations_of(before);
  auto new_deprecations = deprecations_of(after);
  out.deprecations_added = as_changes(missing_from(new_deprecations, old_deprecations));
  out.deprecations_removed = as_changes(missing_from(old_deprecations, new_deprecations));
  return out;
}

} // namespace

std::string_view kind_name(Edge::Kind kind) {
  switch (kind) {
  case Edge::Kind::replaces:
    return "replaces";
  case Edge::Kind::skips:
    return "skips";
  case Edge::Kind::skip_range:
    return "skipRange";
  }
  return "";
}

bool ChannelDiff::empty() const {
  return old_head == new_head && entries_added.empty() && entries_removed.empty() &&
         edges_added.empty() && edges_removed.empty();
}

std::string head_name(const model::Channel& channel) {
  auto head = model::channel_head(channel);
  return head ? (*head)->name : "";
}

CatalogDiff compare(const model::Model& old_model, const model::Model& new_model) {
  CatalogDiff out;
  std::set<std::string> names = keys(old_model.packages);
  names.merge(keys(new_model.packages));
  for (const auto& name : names) {
    auto diff =
        compare_package(name, find_in(old_model.packages, name), find_in(new_model.packages, name));
    if (!unchanged(diff)) {
      out.packages.push_back(std::move(diff));
    }
  }
  return out;
}

} // namespace opm::diff
