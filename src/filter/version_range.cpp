#include "filter/version_range.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

namespace opm::filter {

namespace semver = util::semver;
using Op = Bound::Op;

namespace {

// A version as a term writes it: up to three numbers, each possibly a wildcard or absent.
struct PartialVersion {
  std::uint64_t parts[3] = {0, 0, 0};
  int known = 0; // how many leading parts are numbers (the rest are wildcards)
  std::vector<semver::PreRelease> pre;
};

bool is_wildcard(std::string_view part) { return part == "x" || part == "X" || part == "*"; }

std::optional<std::uint64_t> number(std::string_view text) {
  if (text.empty() || (text.size() > 1 && text.front() == '0')) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<PartialVersion> parse_partial(std::string_view text) {
  if (text.starts_with('v')) {
    text.remove_prefix(1);
  }
  if (auto plus = text.find('+'); plus != std::string_view::npos) {
    text = text.substr(0, plus);
  }
  PartialVersion out;
  if (auto dash = text.find('-'); dash != std::string_view::npos) {
    for (const auto& id : util::split(text.substr(dash + 1), '.')) {
      auto pre = semver::parse_prerelease(id);
      if (!pre) {
        return std::nullopt;
      }
      out.pre.push_back(*pre);
    }
    text = text.substr(0, dash);
  }
  auto parts = util::split(text, '.');
  if (parts.empty() || parts.size() > 3) {
    return std::nullopt;
  }
  bool wild = false;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (is_wildcard(parts[i])) {
      wild = true;
      continue;
    }
    auto n = number(parts[i]);
    if (!n || wild) {
      return std::nullopt;
    }
    out.parts[i] = *n;
    out.known = static_cast<int>(i) + 1;
  }
  if (wild && !out.pre.empty()) {
    return std::nullopt;
  }
  return out;
}

semver::Version version_of(std::uint64_t major, std::uint64_t minor, std::uint64_t patch,
                           std::vector<semver::PreRelease> pre = {}) {
  semver::Version v;
  v.major = major;
  v.minor = minor;
  v.patch = patch;
  v.pre = std::move(pre);
  return v;
}

semver::Version floor_of(const PartialVersion& p) {
  return version_of(p.parts[0], p.parts[1], p.parts[2], p.pre);
}

// The first version above everything `p` covers when its wildcards are filled in:
// 1.2 -> 1.3.0, 1 -> 2.0.0; nullopt when `p` covers everything.
std::optional<semver::Version> ceiling_of(const PartialVersion& p) {
  switch (p.known) {
  case 0:
    return std::nullopt;
  case 1:
    return version_of(p.parts[0] + 1, 0, 0);
  case 2:
    return version_of(p.parts[0], p.parts[1] + 1, 0);
  default:
    return version_of(p.parts[0], p.parts[1], p.parts[2] + 1);
  }
}

Bound bound(Op op, semver::Version v, bool names_prerelease) {
  return {.op = op, .version = std::move(v), .names_prerelease = names_prerelease};
}

// ">= floor" and, when there is one, "< ceiling": the versions a partial version covers.
void add_span(std::vector<Bound>& out, const semver::Version& floor,
              const std::optional<semver::Version>& ceiling, bool pre) {
  out.push_back(bound(Op::ge, floor, pre));
  if (ceiling) {
    out.push_back(bound(Op::lt, *ceiling, pre));
  }
}

std::optional<semver::Version> caret_ceiling(const PartialVersion& p) {
  if (p.known == 0) {
    return std::nullopt;
  }
  if (p.parts[0] > 0 || p.known == 1) {
    return version_of(p.parts[0] + 1, 0, 0);
  }
  if (p.parts[1] > 0 || p.known == 2) {
    return version_of(0, p.parts[1] + 1, 0);
  }
  return version_of(0, 0, p.parts[2] + 1);
}

std::optional<semver::Version> tilde_ceiling(const PartialVersion& p) {
  if (p.known == 0) {
    return std::nullopt;
  }
  if (p.known == 1) {
    return version_of(p.parts[0] + 1, 0, 0);
  }
  return version_of(p.parts[0], p.parts[1] + 1, 0);
}

struct Operator {
  std::string_view text;
  std::string_view name;
};

// Longest first, so that ">=" is not read as ">".
constexpr Operator k_operators[] = {{"~>", "~"},  {">=", ">="}, {"=>", ">="}, {"<=", "<="},
                                    {"=<", "<="}, {"!=", "!="}, {"~", "~"},   {"^", "^"},
                                    {">", ">"},   {"<", "<"},   {"=", "="}};

// A bound no version meets: below 0.0.0.
Bound nothing() { return bound(Op::lt, version_of(0, 0, 0), false); }

// The bounds one operator puts on the versions a partial version covers.
void add_bounds(std::vector<Bound>& out, std::string_view op, const PartialVersion& p) {
  bool pre = !p.pre.empty();
  bool exact = p.known == 3;
  auto floor = floor_of(p);
  auto ceiling = ceiling_of(p);
  if (op == "=") {
    exact ? out.push_back(bound(Op::eq, floor, pre)) : add_span(out, floor, ceiling, pre);
  } else if (op == "!=") {
    out.push_back(bound(Op::ne, floor, pre));
    if (!exact) {
      out.back().outside = true;
      out.back().upper = ceiling;
    }
  } else if (op == ">") {
    out.push_back(exact     ? bound(Op::gt, floor, pre)
                  : ceiling ? bound(Op::ge, *ceiling, pre)
                            : nothing());
  } else if (op == ">=") {
    out.push_back(bound(Op::ge, floor, pre));
  } else if (op == "<") {
    out.push_back(bound(Op::lt, floor, pre));
  } else if (op == "<=") {
    out.push_back(exact     ? bound(Op::le, floor, pre)
                  : ceiling ? bound(Op::lt, *ceiling, pre)
                            : bound(Op::ge, floor, pre));
  } else if (op == "~") {
    add_span(out, floor, tilde_ceiling(p), pre);
  } else {
    add_span(out, floor, caret_ceiling(p), pre);
  }
}

Result<void> add_term(std::vector<Bound>& out, std::string_view term) {
  std::string_view op = "=";
  std::string_view rest = term;
  for (const auto& candidate : k_operators) {
    if (rest.starts_with(candidate.text)) {
      op = candidate.name;
      rest.remove_prefix(candidate.text.size());
      break;
    }
  }
  auto p = parse_partial(util::trim(rest));
  if (!p) {
    return util::fail(Errc::invalid, fmt::format("improper constraint: {}", term));
  }
  add_bounds(out, op, *p);
  return {};
}

// "1.2 - 1.4" becomes ">=1.2 <=1.4"; the rest splits on commas and spaces. An operator
// written apart from its version (">= 1.2") is joined back to it.
std::vector<std::string> terms_of(std::string_view group) {
  std::string text(group);
  std::vector<std::string> words;
  for (auto piece : util::split(text, ',')) {
    for (auto word : util::split(piece, ' ')) {
      word = util::trim(word);
      if (!word.empty()) {
        words.emplace_back(word);
      }
    }
  }
  std::vector<std::string> terms;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i + 2 < words.size() && words[i + 1] == "-") {
      terms.push_back(">=" + words[i]);
      terms.push_back("<=" + words[i + 2]);
      i += 2;
    } else if (!terms.empty() && std::ranges::all_of(terms.back(), [](char c) {
                 return c == '<' || c == '>' || c == '=' || c == '!' || c == '~' || c == '^';
               })) {
      terms.back() += words[i];
    } else {
      terms.push_back(words[i]);
    }
  }
  return terms;
}

} // namespace

bool Bound::matches(const semver::Version& v) const {
  if (!v.pre.empty() && !names_prerelease && op != Op::ne && !outside) {
    return false;
  }
  int c = semver::compare(v, version);
  if (outside) {
    return c < 0 || (upper && semver::compare(v, *upper) >= 0);
  }
  return semver::holds(op, c);
}

bool VersionRange::contains(const semver::Version& v) const {
  return std::ranges::any_of(alternatives, [&v](const auto& all) {
    return std::ranges::all_of(all, [&v](const Bound& b) { return b.matches(v); });
  });
}

Result<VersionRange> parse_version_range(std::string_view text) {
  VersionRange range;
  std::string whole(text);
  std::size_t start = 0;
  while (true) {
    std::size_t bar = whole.find("||", start);
    std::string_view group = std::string_view(whole).substr(
        start, bar == std::string::npos ? std::string::npos : bar - start);
    auto terms = terms_of(group);
    if (terms.empty()) {
      return util::fail(Errc::invalid, fmt::format("improper constraint: {}", text));
    }
    std::vector<Bound> all;
    for (const auto& term : terms) {
      OPM_TRY(add_term(all, term));
    }
    range.alternatives.push_back(std::move(all));
    if (bar == std::string::npos) {
      break;
    }
    start = bar + 2;
  }
  return range;
}

} // namespace opm::filter
