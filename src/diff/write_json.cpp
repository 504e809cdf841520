#include "diff/write.hpp"
#include "json/writer.hpp"

namespace opm::diff {

namespace {

Json strings(const std::vector<std::string>& list) {
  Json out = Json::array();
  for (const auto& s : list) {
    out.push_back(s);
  }
  return out;
}

Json change(const std::string& before, const std::string& after) {
  return {{"old", before}, {"new", after}};
}

Json edges(const std::vector<Edge>& list) {
  Json out = Json::array();
  for (const auto& e : list) {
    out.push_back({{"bundle", e.bundle}, {"kind", kind_name(e.kind)}, {"target", e.target}});
  }
  return out;
}

Json deprecations(const std::vector<DeprecationChange>& list) {
  Json out = Json::array();
  for (const auto& d : list) {
    out.push_back({{"subject", d.subject}, {"message", d.message}});
  }
  return out;
}

Json bundle_changes(const std::vector<BundleChange>& list) {
  Json out = Json::array();
  for (const auto& b : list) {
    out.push_back({{"name", b.name},
                   {"image", change(b.old_image, b.new_image)},
                   {"properties", strings(b.property_types)},
                   {"relatedImages", b.related_images_changed}});
  }
  return out;
}

Json channel(const ChannelDiff& c) {
  return {{"name", c.name},
          {"head", change(c.old_head, c.new_head)},
          {"entriesAdded", strings(c.entries_added)},
          {"entriesRemoved", strings(c.entries_removed)},
          {"edgesAdded", edges(c.edges_added)},
          {"edgesRemoved", edges(c.edges_removed)}};
}

Json package(const PackageDiff& p) {
  Json channels = Json::array();
  for (const auto& c : p.channels) {
    channels.push_back(channel(c));
  }
  return {{"name", p.name},
          {"status", status_name(p.status)},
          {"defaultChannel", change(p.old_default_channel, p.new_default_channel)},
          {"channelsAdded", strings(p.channels_added)},
          {"channelsRemoved", strings(p.channels_removed)},
          {"bundlesAdded", strings(p.bundles_added)},
          {"bundlesRemoved", strings(p.bundles_removed)},
          {"bundlesChanged", bundle_changes(p.bundles_changed)},
          {"channels", channels},
          {"deprecationsAdded", deprecations(p.deprecations_added)},
          {"deprecationsRemoved", deprecations(p.deprecations_removed)}};
}

Json upgrade_check(const std::vector<Violation>& list) {
  Json violations = Json::array();
  for (const auto& v : list) {
    violations.push_back({{"rule", rule_name(v.rule)},
                          {"package", v.package},
                          {"message", v.message},
                          {"file", v.where.file},
                          {"line", v.where.line}});
  }
  return {{"passed", list.empty()}, {"violations", violations}};
}

} // namespace

std::string json_report(const Report& report) {
  if (report.diff.empty() && (report.violations == nullptr || report.violations->empty())) {
    return {};
  }
  Json packages = Json::array();
  for (const auto& p : report.diff.packages) {
    packages.push_back(package(p));
  }
  Json doc = {{"schemaVersion", 1}, {"packages", packages}};
  if (report.violations != nullptr) {
    doc["upgradeCheck"] = upgrade_check(*report.violations);
  }
  return json::to_text(doc, {.indent = 2}) + "\n";
}

} // namespace opm::diff
