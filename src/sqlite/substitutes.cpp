#include "sqlite/substitutes.hpp"

#include "util/interrupt.hpp"
#include "util/semver.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <set>
#include <string>
#include <vector>

namespace opm::sqlite {

namespace {

std::string join_commas(const std::vector<std::string>& parts) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    out += (i == 0 ? "" : ",") + parts[i];
  }
  return out;
}

// The comma-separated names of a column, none for an empty one.
std::vector<std::string> names_in(const std::string& text) {
  return text.empty() ? std::vector<std::string>{} : util::split(text, ',');
}

// One walk along substitutions: the bundles it passed, in order. Coming back to one of them
// fails with latest upstream's text (followed by the loop, so the user sees which bundles to
// fix) instead of walking, and growing the skips, until memory runs out.
class ChainWalk {
public:
  explicit ChainWalk(const std::string& start) : m_path{start}, m_seen{start} {}

  Result<void> visit(const std::string& name) {
    if (util::interrupted()) {
      return util::fail(Errc::io, "interrupted");
    }
    if (!m_seen.insert(name).second) {
      std::string loop;
      for (const auto& passed : m_path) {
        loop += passed + " -> ";
      }
      return util::fail(Errc::invalid,
                        fmt::format("cyclic substitutesFor chain detected involving {}: {}{}",
                                    util::go_quote(name), loop, name));
    }
    m_path.push_back(name);
    return {};
  }

private:
  std::vector<std::string> m_path;
  std::set<std::string> m_seen;
};

struct Edges {
  std::string replaces;
  std::vector<std::string> skips;
  std::string version;
};

Result<Edges> stored_edges(Connection& db, const std::string& name) {
  auto stmt = OPM_TRY(
      db.prepare("SELECT replaces, skips, version FROM operatorbundle WHERE name = ? LIMIT 1"));
  stmt.bind(1, name);
  if (!OPM_TRY(stmt.step())) {
    return util::fail(Errc::not_found, "no bundle found for bundlename " + name);
  }
  return Edges{stmt.text_or_empty(0), names_in(stmt.text_or_empty(1)), stmt.text_or_empty(2)};
}

// The bundles whose substitutesfor names `base`.
Result<std::vector<std::string>> substitutes_of(Connection& db, const std::string& base) {
  auto stmt = OPM_TRY(db.prepare("SELECT name FROM operatorbundle WHERE substitutesfor = ?"));
  stmt.bind(1, base);
  std::vector<std::string> out;
  while (OPM_TRY(stmt.step())) {
    if (auto name = stmt.text_or_empty(0); !name.empty()) {
      out.push_back(std::move(name));
    }
  }
  return out;
}

// What `name` substitutes for ("" for nothing or no such bundle).
Result<std::string> substitution_of(Connection& db, const std::string& name) {
  auto stmt = OPM_TRY(db.prepare("SELECT substitutesfor FROM operatorbundle WHERE name = ?"));
  stmt.bind(1, name);
  if (!OPM_TRY(stmt.step())) {
    return std::string();
  }
  return stmt.text_or_empty(0);
}

Result<void> set_substitutes_for(Connection& db, const std::string& name, const std::string& base) {
  auto stmt = OPM_TRY(db.prepare("UPDATE operatorbundle SET substitutesfor = ? WHERE name = ?"));
  stmt.bind(1, base).bind(2, name);
  return stmt.run();
}

// Adds to `name`'s stored skips each of `extra` it does not already list. Only the stored
// list is checked, so a name repeated in `extra` is added as often, as upstream adds it.
Result<void> append_skips(Connection& db, const std::vector<std::string>& extra,
                          const std::string& name) {
  auto skips = OPM_TRY(stored_edges(db, name)).skips;
  const std::set<std::string> stored(skips.begin(), skips.end());
  for (const auto& skip : extra) {
    if (!stored.contains(skip)) {
      skips.push_back(skip);
    }
  }
  auto stmt = OPM_TRY(db.prepare("UPDATE operatorbundle SET skips = ? WHERE name = ?"));
  stmt.bind(1, join_commas(skips)).bind(2, name);
  return stmt.run();
}

Result<int> compare_versions(const std::string& a, const std::string& b) {
  auto va = OPM_TRY(util::semver::parse(a));
  auto vb = OPM_TRY(util::semver::parse(b));
  return util::semver::build_id_compare(va, vb);
}

// Settles which of the bundles substituting for `base` is the newest: each older one ends
// up substituting for a newer one, the newest for `base`.
Result<void> order_rival_substitutes(Connection& db, const NewBundle& bundle,
                                     const std::string& base) {
  const std::string& name = bundle.name;
  auto rivals = OPM_TRY(substitutes_of(db, base));
  std::deque<std::string> queue(rivals.begin(), rivals.end());
  ChainWalk walk(name);
  while (!queue.empty()) {
    std::string other = std::move(queue.front());
    queue.pop_front();
    if (other == name) {
      continue;
    }
    OPM_TRY(walk.visit(other));
    auto other_version = OPM_TRY(stored_edges(db, other)).version;
    int c = OPM_TRY(compare_versions(other_version, bundle.version));
    if (c == 0) {
      return util::fail(Errc::invalid,
                        "cannot determine latest substitution because of duplicate versions");
    }
    if (c < 0) {
      OPM_TRY(set_substitutes_for(db, name, other));
      auto more = OPM_TRY(substitutes_of(db, other));
      queue.insert(queue.end(), more.begin(), more.end());
      continue;
    }
    OPM_TRY(set_substitutes_for(db, other, name));
    auto inherited = bundle.skips;
    inherited.push_back(name);
    OPM_TRY(append_skips(db, inherited, other));
    if (OPM_TRY(substitutes_of(db, name)).size() > 1) {
      return util::fail(Errc::invalid,
                        "programmer error: more than one substitution pointing to " + name);
    }
  }
  return {};
}

} // namespace

Result<void> add_substitutes_for(Connection& db, const NewBundle& bundle) {
  const std::string& name = bundle.name;
  std::vector<std::string> skips = bundle.skips;
  std::string replaces = bundle.replaces;
  if (!bundle.substitutes_for.empty()) {
    auto repoint = OPM_TRY(db.prepare("UPDATE operatorbundle SET replaces = ? WHERE replaces = ?"));
    repoint.bind(1, name).bind(2, bundle.substitutes_for);
    OPM_TRY(repoint.run());
    OPM_TRY(order_rival_substitutes(db, bundle, bundle.substitutes_for));
  }

  // Skip every bundle down the substitution chain.
  ChainWalk down(name);
  for (auto base = OPM_TRY(substitution_of(db, name)); !base.empty();
       base = OPM_TRY(substitution_of(db, base))) {
    OPM_TRY(down.visit(base));
    skips.push_back(base);
  }

  // Bundles already substituting for this one inherit its skips. Upstream gives up silently
  // (keeping the columns as they are) wherever a bundle has several substitutes.
  auto successors = OPM_TRY(substitutes_of(db, name));
  if (successors.size() > 1) {
    return {};
  }
  ChainWalk up(name);
  while (!successors.empty()) {
    OPM_TRY(up.visit(successors.front()));
    auto inherited = skips;
    inherited.push_back(name);
    OPM_TRY(append_skips(db, inherited, successors.front()));
    successors = OPM_TRY(substitutes_of(db, successors.front()));
    if (successors.size() > 1) {
      return {};
    }
  }

  // A skipped bundle's substitutes are skipped too (never this bundle itself); duplicates go.
  if (!skips.empty()) {
    std::vector<std::string> all;
    auto add = [&all](const std::string& s) {
      if (std::find(all.begin(), all.end(), s) == all.end()) {
        all.push_back(s);
      }
    };
    for (const auto& skip : skips) {
      add(skip);
      auto subs = OPM_TRY(substitutes_of(db, skip));
      if (subs.size() > 1) {
        return {};
      }
      ChainWalk from_skip(skip);
      while (!subs.empty()) {
        std::string sub = subs.front();
        subs.erase(subs.begin());
        if (sub == name) {
          continue;
        }
        OPM_TRY(from_skip.visit(sub));
        add(sub);
        subs = OPM_TRY(substitutes_of(db, sub));
        if (subs.size() > 1) {
          return {};
        }
      }
    }
    skips = std::move(all);
  }

  // Replacing a substituted bundle means replacing its newest substitute.
  if (!replaces.empty()) {
    auto subs = OPM_TRY(substitutes_of(db, replaces));
    ChainWalk from_replaces(replaces);
    while (!subs.empty()) {
      replaces = subs.front();
      OPM_TRY(from_replaces.visit(replaces));
      subs = OPM_TRY(substitutes_of(db, replaces));
      if (subs.size() > 1) {
        return {};
      }
    }
  }

  auto update =
      OPM_TRY(db.prepare("UPDATE operatorbundle SET replaces = ?, skips = ? WHERE name = ?"));
  update.bind(1, replaces).bind(2, join_commas(skips)).bind(3, name);
  return update.run();
}

} // namespace opm::sqlite
