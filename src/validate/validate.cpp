#include "validate/validate.hpp"

#include "util/semver.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace opm::validate {

namespace {

using catalog::model::Bundle;
using catalog::model::Channel;
using catalog::model::Deprecation;
using catalog::model::Model;
using catalog::model::Package;

// A node of upstream's error tree (alpha/model/error.go): a message with rule messages
// (leaves) and nested nodes below it.
struct Node {
  std::string message;
  Location where;
  std::vector<Node> children;
  bool leaf = false;

  void add_rule(std::string text) { children.push_back(Node{std::move(text), {}, {}, true}); }
  void add_if_failed(Node&& child) {
    if (!child.children.empty()) {
      children.push_back(std::move(child));
    }
  }
};

void render(const Node& node, const std::string& lead, const std::string& indent,
            std::string& out) {
  out += lead;
  out += node.message;
  out += node.children.empty() ? "\n" : ":\n";
  for (std::size_t i = 0; i < node.children.size(); ++i) {
    bool last = i + 1 == node.children.size();
    render(node.children[i], indent + (last ? "└── " : "├── "), indent + (last ? "    " : "│   "),
           out);
  }
}

void collect_findings(const Node& node, std::vector<Finding>& findings,
                      const std::string& package) {
  for (const Node& child : node.children) {
    if (child.leaf) {
      findings.push_back(Finding{node.message + ": " + child.message, node.where, package});
    } else {
      collect_findings(child, findings, package);
    }
  }
}

void check_deprecation(const Deprecation& d, Node& node) {
  if (d.present && d.message.empty()) {
    node.add_rule("invalid deprecation: message must be set");
  }
}

// upstream's Channel.Validate: one head, a replaces chain from it without cycles, and every bundle
// either on that chain or skipped. Linear in the channel's size.
std::optional<std::string> replaces_chain_problem(const Channel& channel) {
  auto head = catalog::model::channel_head(channel);
  if (!head) {
    return head.error().message();
  }
  std::unordered_set<std::string_view> skipped;
  for (const auto& [name, b] : channel.bundles) {
    skipped.insert(b.skips.begin(), b.skips.end());
  }
  // The names walked, in order, and where each bundle entered the walk: upstream keeps a
  // list per bundle of everything walked since it, which is a suffix of this one.
  std::vector<std::string_view> walked{(*head)->name};
  std::unordered_map<std::string_view, std::size_t> entered{{(*head)->name, 0}};
  std::unordered_set<std::string_view> visited{(*head)->name};
  const Bundle* current = *head;
  while (current != nullptr) {
    entered.try_emplace(current->name, walked.size() - 1);
    std::string_view next = current->replaces;
    if (skipped.contains(next)) {
      break;
    }
    walked.push_back(next);
    if (visited.contains(next)) {
      auto from = entered.find(next);
      std::size_t start = from == entered.end() ? walked.size() - 1 : from->second;
      std::string chain;
      for (std::size_t i = start; i < walked.size(); ++i) {
        if (i > start) {
          chain += " -> ";
        }
        chain += walked[i];
      }
      return "detected cycle in replaces chain of upgrade graph: " + chain;
    }
    visited.insert(next);
    auto found = channel.bundles.find(next);
    current = found == channel.bundles.end() ? nullptr : &found->second;
  }
  std::string stranded;
  for (const auto& [name, b] : channel.bundles) {
    if (!visited.contains(name) && !skipped.contains(name)) {
      if (!stranded.empty()) {
        stranded += ", ";
      }
      stranded += name;
    }
  }
  if (!stranded.empty()) {
    return "channel contains one or more stranded bundles: " + stranded;
  }
  return std::nullopt;
}

Node check_bundle(const Bundle& b, const Package& pkg) {
  Node node{fmt::format("invalid bundle {}", util::go_quote(b.name)), b.where, {}, false};
  if (b.name.empty()) {
    node.add_rule("name must be set");
  }
  if (!b.parsed_release.empty()) {
    std::string normalized = pkg.name + "-v" + b.version_string();
    if (b.name != normalized) {
      node.add_rule(fmt::format("name {} does not match normalized name {}", util::go_quote(b.name),
                                util::go_quote(normalized)));
    }
  }
  for (std::size_t i = 0; i < b.skips.size(); ++i) {
    if (b.skips[i].empty()) {
      node.add_rule(fmt::format("skip[{}] is empty", i));
    }
  }
  if (!b.skip_range.empty()) {
    if (auto range = util::semver::parse_range(b.skip_range); !range) {
      node.add_rule(fmt::format("invalid skipRange {}: {}", util::go_quote(b.skip_range),
                                range.error().message()));
    }
  }
  // A bundle object always has exactly one (conversion checked it); an entry without one
  // has none.
  if (!b.has_blob) {
    node.add_rule("must be exactly one property with type \"olm.package\"");
  }
  if (b.image.empty() && !b.has_objects()) {
    node.add_rule("bundle image must be set");
  }
  check_deprecation(b.deprecation, node);
  if (!b.parsed_version.build.empty() && !b.parsed_release.empty()) {
    node.add_rule("cannot use build metadata in version with a release version");
  }
  return node;
}

// Upstream's rule for an empty channel; when the channel is only the package's
// defaultChannel, naming no channel the package defines, the channels it does define.
std::string empty_channel_rule(const Channel& ch, const Package& pkg) {
  std::string rule = "channel must contain at least one bundle";
  if (ch.defined) {
    return rule;
  }
  std::vector<std::string> defined;
  for (const auto& [name, other] : pkg.channels) {
    if (other.defined) {
      defined.push_back(util::go_quote(name));
    }
  }
  rule += fmt::format(" (defaultChannel {} names no olm.channel of package {}, ",
                      util::go_quote(ch.name), util::go_quote(pkg.name));
  rule +=
      defined.empty() ? "which has none)" : "whose channels are " + util::join(defined, ", ") + ")";
  return rule;
}

Node check_channel(const Channel& ch, const Package& pkg) {
  Node node{fmt::format("invalid channel {}", util::go_quote(ch.name)), ch.where, {}, false};
  if (ch.bundles.empty()) {
    node.add_rule(empty_channel_rule(ch, pkg));
  } else if (auto problem = replaces_chain_problem(ch)) {
    node.add_rule(std::move(*problem));
  }
  for (const auto& [name, b] : ch.bundles) {
    node.add_if_failed(check_bundle(b, pkg));
  }
  check_deprecation(ch.deprecation, node);
  return node;
}

// Bundles of the package (over all channels) sharing a version string.
std::optional<std::string> duplicate_versions(const Package& pkg) {
  std::map<std::string, std::set<std::string_view>> names_by_version;
  for (const auto& [channel_name, ch] : pkg.channels) {
    for (const auto& [name, b] : ch.bundles) {
      names_by_version[b.version_string()].insert(b.name);
    }
  }
  std::string groups;
  for (const auto& [version, names] : names_by_version) {
    if (names.size() < 2) {
      continue;
    }
    if (!groups.empty()) {
      groups += ' ';
    }
    groups += '{';
    groups += version;
    groups += ": [";
    bool first = true;
    for (std::string_view name : names) {
      if (!first) {
        groups += ", ";
      }
      first = false;
      groups += name;
    }
    groups += "]}";
  }
  if (groups.empty()) {
    return std::nullopt;
  }
  return "duplicate versions found in bundles: [" + groups + "]";
}

Node check_package(const Package& pkg) {
  Node node{fmt::format("invalid package {}", util::go_quote(pkg.name)), pkg.where, {}, false};
  if (pkg.default_channel.empty()) {
    node.add_rule("default channel must be set");
  }
  if (pkg.channels.empty()) {
    node.add_rule("package must contain at least one channel");
  }
  for (const auto& [name, ch] : pkg.channels) {
    node.add_if_failed(check_channel(ch, pkg));
  }
  if (auto problem = duplicate_versions(pkg)) {
    node.add_rule(std::move(*problem));
  }
  check_deprecation(pkg.deprecation, node);
  return node;
}

} // namespace

Outcome check_model(const Model& model) {
  Node root{"invalid index", {}, {}, false};
  std::vector<std::string> failed_packages; // beside root's children, in the same order
  for (const auto& [name, pkg] : model.packages) {
    std::size_t before = root.children.size();
    root.add_if_failed(check_package(pkg));
    if (root.children.size() != before) {
      failed_packages.push_back(name);
    }
  }
  Outcome outcome;
  if (root.children.empty()) {
    return outcome;
  }
  std::string text;
  render(root, "", "", text);
  outcome.message = std::string(util::trim(text));
  for (std::size_t i = 0; i < root.children.size(); ++i) {
    collect_findings(root.children[i], outcome.findings, failed_packages[i]);
  }
  return outcome;
}

Outcome check(const catalog::DeclarativeConfig& cfg) {
  auto model = catalog::model::to_model(cfg);
  if (!model) {
    const Error& error = model.error();
    return Outcome{error.message(), {Finding{error.message(), error.where().value_or(Location{})}}};
  }
  return check_model(*model);
}

Error located_failure(Outcome&& outcome) {
  bool one_line = outcome.message.find('\n') == std::string::npos;
  if (outcome.findings.size() == 1 && one_line) {
    return Error(Errc::invalid, std::move(outcome.message), outcome.findings.front().where);
  }
  // A tree names many objects, so no single location goes with it.
  std::string text;
  for (const Finding& finding : outcome.findings) {
    text += finding.describe() + "\n";
  }
  return Error(Errc::invalid, text + outcome.message);
}

Result<catalog::model::Model> valid_model(const catalog::DeclarativeConfig& cfg) {
  auto model = catalog::model::to_model(cfg);
  if (!model) {
    return model;
  }
  Outcome outcome = check_model(*model);
  if (!outcome.passed()) {
    return std::unexpected(located_failure(std::move(outcome)));
  }
  return model;
}

} // namespace opm::validate
