#include "filter/channel_graph.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

namespace opm::filter {

namespace {

using Incoming = std::map<std::string, std::set<std::string>, std::less<>>;

// Walks down from the head, taking each bundle once every edge into it has been taken: edges
// left over mean a cycle.
bool has_cycle(const std::map<std::string, std::vector<std::string>, std::less<>>& edges,
               Incoming incoming, const std::string& head) {
  std::deque<std::string> queue{head};
  while (!queue.empty()) {
    std::string cur = std::move(queue.front());
    queue.pop_front();
    auto out = edges.find(cur);
    if (out == edges.end()) {
      continue;
    }
    for (const auto& next : out->second) {
      auto in = incoming.find(next);
      if (in == incoming.end()) {
        continue;
      }
      in->second.erase(cur);
      if (in->second.empty()) {
        incoming.erase(in);
        queue.push_back(next);
      }
    }
  }
  return !incoming.empty();
}

} // namespace

Result<ChannelGraph> ChannelGraph::build(const catalog::Channel& channel) {
  ChannelGraph graph;
  std::vector<std::string> problems;
  std::map<std::string, std::vector<std::string>, std::less<>> edges;
  Incoming incoming;
  const auto& entries = channel.entries.value_or(std::vector<catalog::ChannelEntry>{});
  if (entries.empty()) {
    return util::fail(Errc::invalid, "channel has no entries");
  }
  for (const auto& e : entries) {
    if (graph.m_nodes.contains(e.name)) {
      problems.push_back(fmt::format("duplicate channel entry {}", util::go_quote(e.name)));
      continue;
    }
    graph.m_nodes.emplace(e.name, Node{.replaces = e.replaces, .skips = e.skips});
    auto& out = edges[e.name];
    if (!e.replaces.empty()) {
      if (e.replaces == e.name) {
        problems.push_back(
            fmt::format("invalid channel entry {}: replaces itself", util::go_quote(e.name)));
      }
      out.push_back(e.replaces);
      incoming[e.replaces].insert(e.name);
    }
    for (const auto& skip : e.skips) {
      if (skip == e.name) {
        problems.push_back(
            fmt::format("invalid channel entry {}: skips itself", util::go_quote(e.name)));
      }
      out.push_back(skip);
      incoming[skip].insert(e.name);
    }
  }
  std::vector<std::string> heads;
  for (const auto& [name, node] : graph.m_nodes) {
    if (!incoming.contains(name)) {
      heads.push_back(name);
    }
  }
  if (heads.empty()) {
    problems.emplace_back("no channel heads found");
  } else if (heads.size() > 1) {
    problems.push_back(fmt::format("multiple channel heads found: [{}]", util::join(heads, " ")));
  }
  if (!problems.empty()) {
    return util::fail(Errc::invalid, util::join(problems, "; "));
  }
  graph.m_head = heads.front();
  if (has_cycle(edges, std::move(incoming), graph.m_head)) {
    return util::fail(Errc::invalid, "detected a cycle in the upgrade graph of the channel");
  }
  return graph;
}

std::vector<std::string> ChannelGraph::replaces_chain() const {
  std::vector<std::string> chain;
  for (auto it = m_nodes.find(m_head); it != m_nodes.end();
       it = m_nodes.find(it->second.replaces)) {
    chain.push_back(it->first);
  }
  return chain;
}

std::set<std::string> ChannelGraph::keep_in_range(
    const VersionRange& range, const Versions& versions,
    const std::function<void(const std::string&, const util::semver::Version*)>& outside) const {
  auto in_range = [&](const std::string& name) {
    auto v = versions.find(name);
    return m_nodes.contains(name) && v != versions.end() && range.contains(v->second);
  };
  auto chain = replaces_chain();
  // counts[i]: the in-range bundles at or below chain[i] (itself, what it skips, and all that
  // below it), each counted once, by the lowest bundle that reaches it.
  std::vector<std::size_t> counts(chain.size(), 0);
  std::set<std::string> seen;
  for (std::size_t i = chain.size(); i-- > 0;) {
    std::size_t count = i + 1 < chain.size() ? counts[i + 1] : 0;
    auto claim = [&](const std::string& name) {
      if (in_range(name) && seen.insert(name).second) {
        ++count;
      }
    };
    claim(chain[i]);
    for (const auto& skip : m_nodes.find(chain[i])->second.skips) {
      claim(skip);
    }
    counts[i] = count;
  }
  std::size_t head = 0;
  std::size_t tail = chain.size();
  for (std::size_t i = 0; i < chain.size(); ++i) {
    if (counts[i] >= counts[head]) {
      head = i;
    }
    if (counts[i] == 0) {
      tail = i;
      break;
    }
  }
  std::set<std::string> keep;
  for (std::size_t i = head; i < tail; ++i) {
    if (!in_range(chain[i])) {
      auto v = versions.find(chain[i]);
      outside(chain[i], v == versions.end() ? nullptr : &v->second);
    }
    keep.insert(chain[i]);
    for (const auto& skip : m_nodes.find(chain[i])->second.skips) {
      if (in_range(skip)) {
        keep.insert(skip);
      }
    }
  }
  return keep;
}

} // namespace opm::filter
