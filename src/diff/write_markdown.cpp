#include "diff/write.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

namespace opm::diff {

namespace {

std::string code(std::string_view s) { return s.empty() ? "(none)" : fmt::format("`{}`", s); }

std::string code_list(const std::vector<std::string>& names) {
  std::vector<std::string> parts;
  for (const auto& n : names) {
    parts.push_back(code(n));
  }
  return util::join(parts, ", ");
}

// Table cells: a '|' would end the cell.
std::string cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    out += c == '|' ? std::string("\\|") : std::string(1, c);
  }
  return out;
}

// The default channel a package has (had, when removed), or its change.
std::string default_channel_cell(const PackageDiff& p) {
  switch (p.status) {
  case PackageDiff::Status::removed:
    return code(p.old_default_channel);
  case PackageDiff::Status::added:
    return code(p.new_default_channel);
  case PackageDiff::Status::changed:
    break;
  }
  if (p.old_default_channel == p.new_default_channel) {
    return code(p.new_default_channel);
  }
  return code(p.old_default_channel) + " → " + code(p.new_default_channel);
}

void summary_table(const CatalogDiff& diff, std::string& out) {
  out += "| Package | Status | Channels | Bundles | Changed bundles | Default channel |\n"
         "|---|---|---|---|---|---|\n";
  for (const auto& p : diff.packages) {
    std::string default_channel = default_channel_cell(p);
    out += fmt::format("| {} | {} | +{} −{} | +{} −{} | {} | {} |\n", cell(p.name),
                       status_name(p.status), p.channels_added.size(), p.channels_removed.size(),
                       p.bundles_added.size(), p.bundles_removed.size(), p.bundles_changed.size(),
                       cell(default_channel));
  }
}

// A mermaid label in double quotes: quotes and angle brackets as mermaid's entity codes.
std::string label(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '"':
      out += "#quot;";
      break;
    case '<':
      out += "#lt;";
      break;
    case '>':
      out += "#gt;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

class Mermaid {
public:
  explicit Mermaid(const ChannelDiff& c) {
    for (const auto& name : c.entries_added) {
      m_classes[name] = "added";
    }
    for (const auto& name : c.entries_removed) {
      m_classes[name] = "removed";
    }
    for (const auto& e : c.edges_added) {
      edge(e, true);
    }
    for (const auto& e : c.edges_removed) {
      edge(e, false);
    }
    for (const auto& name : {c.old_head, c.new_head}) {
      if (!name.empty()) {
        node(name);
      }
    }
  }

  std::string text() const {
    std::string out = "```mermaid\ngraph LR\n";
    for (const auto& name : m_order) {
      const std::string& id = m_ids.at(name);
      bool range = m_ranges.contains(name);
      out += fmt::format("  {}{}\"{}\"{}", id, range ? "{{" : "[", label(name), range ? "}}" : "]");
      auto cls = m_classes.find(name);
      if (cls != m_classes.end()) {
        out += ":::" + cls->second;
      }
      out += "\n";
    }
    out += m_edges;
    out += "  classDef added fill:#dafbe1,stroke:#1a7f37\n"
           "  classDef removed fill:#ffebe9,stroke:#cf222e\n"
           "```\n";
    return out;
  }

private:
  std::string node(const std::string& name) {
    auto [it, inserted] = m_ids.emplace(name, "");
    if (inserted) {
      it->second = fmt::format("n{}", m_order.size());
      m_order.push_back(name);
    }
    return it->second;
  }

  // Upgrades go from the older bundle to the newer: target --> bundle. Added edges are
  // thick, removed ones dotted.
  void edge(const Edge& e, bool added) {
    if (e.kind == Edge::Kind::skip_range) {
      m_ranges.insert(e.target);
    }
    std::string from = node(e.target);
    std::string to = node(e.bundle);
    std::string text = fmt::format("{} {}", added ? "+" : "−", kind_name(e.kind));
    m_edges += fmt::format("  {} {}|{}| {}\n", from, added ? "==>" : "-.->", text, to);
  }

  std::map<std::string, std::string> m_ids; // node text -> id
  std::vector<std::string> m_order;         // node texts as first met
  std::map<std::string, std::string> m_classes;
  std::set<std::string> m_ranges;
  std::string m_edges;
};

void channel_section(const ChannelDiff& c, std::string& out) {
  out += fmt::format("\n#### Channel {}\n\n", code(c.name));
  if (c.old_head != c.new_head) {
    out += fmt::format("- Head: {} → {}\n", code(c.old_head), code(c.new_head));
  } else {
    out += fmt::format("- Head: {} (unchanged)\n", code(c.new_head));
  }
  if (!c.entries_added.empty()) {
    out += "- Entries added: " + code_list(c.entries_added) + "\n";
  }
  if (!c.entries_removed.empty()) {
    out += "- Entries removed: " + code_list(c.entries_removed) + "\n";
  }
  if (!c.edges_added.empty() || !c.edges_removed.empty()) {
    out += "\n" + Mermaid(c).text();
  }
}

void deprecations(std::string_view title, const std::vector<DeprecationChange>& list,
                  std::string& out) {
  if (list.empty()) {
    return;
  }
  out += fmt::format("- {}:\n", title);
  for (const auto& d : list) {
    out += fmt::format("  - {}: {}\n", d.subject, d.message);
  }
}

void package_section(const PackageDiff& p, std::string& out) {
  out += fmt::format("\n### {} ({})\n\n", p.name, status_name(p.status));
  if (p.status == PackageDiff::Status::changed && p.old_default_channel != p.new_default_channel) {
    out += fmt::format("- Default channel: {} → {}\n", code(p.old_default_channel),
                       code(p.new_default_channel));
  }
  std::pair<std::string_view, const std::vector<std::string>*> lists[] = {
      {"Channels added", &p.channels_added},
      {"Channels removed", &p.channels_removed},
      {"Bundles added", &p.bundles_added},
      {"Bundles removed", &p.bundles_removed}};
  for (const auto& [title, names] : lists) {
    if (!names->empty()) {
      out += fmt::format("- {}: {}\n", title, code_list(*names));
    }
  }
  if (!p.bundles_changed.empty()) {
    out += "- Bundles changed:\n";
    for (const auto& b : p.bundles_changed) {
      out += fmt::format("  - {}: {}\n", code(b.name), bundle_change_text(b));
    }
  }
  deprecations("Deprecations added", p.deprecations_added, out);
  deprecations("Deprecations removed", p.deprecations_removed, out);
  for (const auto& c : p.channels) {
    channel_section(c, out);
  }
}

void violations_section(const std::vector<Violation>& list, std::string& out) {
  if (list.empty()) {
    out += "\n**Upgrade check passed.**\n";
    return;
  }
  out += fmt::format("\n### Upgrade check: {} problem{}\n\n", list.size(),
                     list.size() == 1 ? "" : "s");
  for (const auto& v : list) {
    std::string where = v.where.empty() ? "" : code(v.where.describe()) + " ";
    out += fmt::format("- **{}** {}{}\n", rule_name(v.rule), where, v.message);
  }
}

} // namespace

std::string markdown_report(const Report& report) {
  if (report.diff.empty() && (report.violations == nullptr || report.violations->empty())) {
    return {};
  }
  std::string out = "## Catalog changes\n\n";
  summary_table(report.diff, out);
  if (report.violations != nullptr) {
    violations_section(*report.violations, out);
  }
  for (const auto& p : report.diff.packages) {
    package_section(p, out);
  }
  return out;
}

} // namespace opm::diff
