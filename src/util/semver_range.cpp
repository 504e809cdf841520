#include "util/semver.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

// Version ranges as blang/semver parses them (ParseRange), with the comparators they hold.
namespace opm::util::semver {

namespace {

std::unexpected<Error> invalid_range(std::string message) {
  return fail(Errc::invalid, std::move(message));
}

} // namespace

bool Comparator::matches(const Version& v) const { return holds(op, compare(v, version)); }

bool holds(Comparator::Op op, int c) {
  using Op = Comparator::Op;
  switch (op) {
  case Op::eq:
    return c == 0;
  case Op::ne:
    return c != 0;
  case Op::gt:
    return c > 0;
  case Op::ge:
    return c >= 0;
  case Op::lt:
    return c < 0;
  case Op::le:
    return c <= 0;
  }
  return false;
}

bool Range::contains(const Version& v) const {
  return std::ranges::any_of(alternatives, [&](const std::vector<Comparator>& all) {
    return !all.empty() &&
           std::ranges::all_of(all, [&](const Comparator& c) { return c.matches(v); });
  });
}

namespace {

// Go's unicode.IsDigit (category Nd): ranges of ten code points, or one longer run.
bool is_unicode_digit(char32_t cp) {
  static constexpr std::array<std::pair<char32_t, char32_t>, 64> k_nd = {{
      {0x30, 0x39},       {0x660, 0x669},     {0x6F0, 0x6F9},     {0x7C0, 0x7C9},
      {0x966, 0x96F},     {0x9E6, 0x9EF},     {0xA66, 0xA6F},     {0xAE6, 0xAEF},
      {0xB66, 0xB6F},     {0xBE6, 0xBEF},     {0xC66, 0xC6F},     {0xCE6, 0xCEF},
      {0xD66, 0xD6F},     {0xDE6, 0xDEF},     {0xE50, 0xE59},     {0xED0, 0xED9},
      {0xF20, 0xF29},     {0x1040, 0x1049},   {0x1090, 0x1099},   {0x17E0, 0x17E9},
      {0x1810, 0x1819},   {0x1946, 0x194F},   {0x19D0, 0x19D9},   {0x1A80, 0x1A89},
      {0x1A90, 0x1A99},   {0x1B50, 0x1B59},   {0x1BB0, 0x1BB9},   {0x1C40, 0x1C49},
      {0x1C50, 0x1C59},   {0xA620, 0xA629},   {0xA8D0, 0xA8D9},   {0xA900, 0xA909},
      {0xA9D0, 0xA9D9},   {0xA9F0, 0xA9F9},   {0xAA50, 0xAA59},   {0xABF0, 0xABF9},
      {0xFF10, 0xFF19},   {0x104A0, 0x104A9}, {0x10D30, 0x10D39}, {0x11066, 0x1106F},
      {0x110F0, 0x110F9}, {0x11136, 0x1113F}, {0x111D0, 0x111D9}, {0x112F0, 0x112F9},
      {0x11450, 0x11459}, {0x114D0, 0x114D9}, {0x11650, 0x11659}, {0x116C0, 0x116C9},
      {0x11730, 0x11739}, {0x118E0, 0x118E9}, {0x11950, 0x11959}, {0x11C50, 0x11C59},
      {0x11D50, 0x11D59}, {0x11DA0, 0x11DA9}, {0x11F50, 0x11F59}, {0x16A60, 0x16A69},
      {0x16AC0, 0x16AC9}, {0x16B50, 0x16B59}, {0x1D7CE, 0x1D7FF}, {0x1E140, 0x1E149},
      {0x1E2F0, 0x1E2F9}, {0x1E4F0, 0x1E4F9}, {0x1E950, 0x1E959}, {0x1FBF0, 0x1FBF9},
  }};
  return std::ranges::any_of(k_nd, [cp](auto r) { return cp >= r.first && cp <= r.second; });
}

// Go's strings.TrimSpace.
std::string_view trim_unicode_space(std::string_view s) {
  std::size_t begin = 0;
  while (begin < s.size()) {
    std::size_t next = begin;
    bool valid = true;
    char32_t cp = decode_utf8(s, next, &valid);
    if (!valid || !util::go_is_space(cp)) {
      break;
    }
    begin = next;
  }
  std::size_t end = s.size();
  while (end > begin) {
    // Step back to the start of the last code point.
    std::size_t start = end - 1;
    while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) {
      --start;
    }
    std::size_t probe = start;
    bool valid = true;
    char32_t cp = decode_utf8(s, probe, &valid);
    if (!valid || probe != end || !util::go_is_space(cp)) {
      break;
    }
    end = start;
  }
  return s.substr(begin, end - begin);
}

// Split a range into terms the way blang does: on spaces, except that a space right after
// '>', '<' or '=' joins the operator with what follows. Terms of one character are dropped
// (blang's bounds check), and the spaces left inside a term are removed.
std::vector<std::string> split_terms(std::string_view s) {
  std::vector<std::string> terms;
  std::size_t last = 0;
  char last_char = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ' ' && last_char != '>' && last_char != '<' && last_char != '=') {
      if (last + 1 < i) {
        terms.emplace_back(s.substr(last, i - last));
      }
      last = i + 1;
    } else if (s[i] != ' ') {
      last_char = s[i];
    }
  }
  if (last + 1 < s.size()) {
    terms.emplace_back(s.substr(last));
  }
  for (auto& term : terms) {
    std::erase(term, ' ');
  }
  return terms;
}

Result<std::vector<std::vector<std::string>>> split_alternatives(std::vector<std::string> terms) {
  std::vector<std::vector<std::string>> groups;
  std::size_t last = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (terms[i] == "||") {
      if (i == 0) {
        return invalid_range("First element in range is '||'");
      }
      groups.emplace_back(
          std::make_move_iterator(terms.begin() + static_cast<std::ptrdiff_t>(last)),
          std::make_move_iterator(terms.begin() + static_cast<std::ptrdiff_t>(i)));
      last = i + 1;
    }
  }
  if (last == terms.size()) {
    return invalid_range("Last element in range is '||'");
  }
  groups.emplace_back(std::make_move_iterator(terms.begin() + static_cast<std::ptrdiff_t>(last)),
                      std::make_move_iterator(terms.end()));
  return groups;
}

struct Term {
  std::string_view op;
  std::string_view version;
};

// The operator is everything before the first (Unicode) digit, trimmed.
Result<Term> split_operator(std::string_view term) {
  for (std::size_t i = 0; i < term.size();) {
    std::size_t start = i;
    bool valid = true;
    char32_t cp = decode_utf8(term, i, &valid);
    if (valid && is_unicode_digit(cp)) {
      return Term{trim_unicode_space(term.substr(0, start)), term.substr(start)};
    }
  }
  return invalid_range(fmt::format("Could not get version from string: {}", go_quote(term)));
}

enum class Wildcard { none, major, minor, patch };

Wildcard wildcard_of(std::string_view version) {
  auto parts = split_view(version, '.');
  if (parts.back() != "x") {
    return Wildcard::none;
  }
  switch (parts.size()) {
  case 1:
    return Wildcard::major;
  case 2:
    return Wildcard::minor;
  case 3:
    return Wildcard::patch;
  default:
    return Wildcard::none;
  }
}

void replace_first(std::string& s, std::string_view from, std::string_view to) {
  if (std::size_t pos = s.find(from); pos != std::string::npos) {
    s.replace(pos, from.size(), to);
  }
}

// "1.x.x" and "1.x" become "1.0.0", "1.2.x" becomes "1.2.0".
std::string flatten_wildcard(std::string_view version) {
  std::string flat(version);
  replace_first(flat, ".x.x", ".x");
  replace_first(flat, ".x", ".0");
  if (split_view(flat, '.').size() == 2) {
    flat += ".0";
  }
  return flat;
}

// Go's strconv.Atoi for the int64 range.
std::optional<std::int64_t> go_atoi(std::string_view s) {
  std::size_t i = 0;
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    i = 1;
  }
  if (i == s.size()) {
    return std::nullopt;
  }
  std::uint64_t magnitude = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') {
      return std::nullopt;
    }
    if (magnitude > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) {
      return std::nullopt;
    }
    magnitude = magnitude * 10 + static_cast<std::uint64_t>(s[i] - '0');
  }
  constexpr auto k_max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (negative) {
    if (magnitude > k_max + 1) {
      return std::nullopt;
    }
    return static_cast<std::int64_t>(~magnitude + 1);
  }
  if (magnitude > k_max) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(magnitude);
}

// Increment the dot-separated number at `index`; "" when it is not an integer (blang
// ignores that error and carries on with an empty version).
std::string increment_part(std::string_view version, std::size_t index) {
  auto parts = split_view(version, '.');
  if (index >= parts.size()) {
    return {};
  }
  auto n = go_atoi(parts[index]);
  if (!n) {
    return {};
  }
  // Go's int arithmetic wraps around.
  auto bumped = static_cast<std::int64_t>(static_cast<std::uint64_t>(*n) + 1U);
  std::string number = std::to_string(bumped);
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += '.';
    }
    out += i == index ? std::string_view(number) : parts[i];
  }
  return out;
}

Result<void> expand_wildcards(std::vector<std::vector<std::string>>& groups) {
  for (auto& group : groups) {
    std::vector<std::string> expanded;
    expanded.reserve(group.size());
    for (auto& term : group) {
      if (term.find('x') == std::string::npos) {
        expanded.push_back(std::move(term));
        continue;
      }
      auto [op, version] = OPM_TRY(split_operator(term));
      Wildcard kind = wildcard_of(version);
      std::string flat = flatten_wildcard(version);
      std::string_view result_op;
      bool increment = false;
      if (op == ">") {
        result_op = ">=";
        increment = true;
      } else if (op == ">=") {
        result_op = ">=";
      } else if (op == "<") {
        result_op = "<";
      } else if (op == "<=") {
        result_op = "<";
        increment = true;
      } else if (op.empty() || op == "=" || op == "==") {
        expanded.push_back(">=" + flat);
        result_op = "<";
        increment = true;
      } else if (op == "!=" || op == "!") {
        expanded.push_back("<" + flat);
        result_op = ">=";
        increment = true;
      }
      std::string result_version;
      if (!increment) {
        result_version = flat;
      } else if (kind == Wildcard::patch) {
        result_version = increment_part(flat, 1);
      } else if (kind == Wildcard::minor) {
        result_version = increment_part(flat, 0);
      }
      expanded.push_back(std::string(result_op) + result_version);
    }
    group = std::move(expanded);
  }
  return {};
}

std::optional<Comparator::Op> parse_operator(std::string_view op) {
  using Op = Comparator::Op;
  if (op.empty() || op == "=" || op == "==") {
    return Op::eq;
  }
  if (op == ">") {
    return Op::gt;
  }
  if (op == ">=") {
    return Op::ge;
  }
  if (op == "<") {
    return Op::lt;
  }
  if (op == "<=") {
    return Op::le;
  }
  if (op == "!" || op == "!=") {
    return Op::ne;
  }
  return std::nullopt;
}

Result<Comparator> parse_comparator(std::string_view term) {
  auto [op_text, version_text] = OPM_TRY(split_operator(term));
  std::string joined = std::string(op_text) + std::string(version_text);
  auto op = parse_operator(op_text);
  if (!op) {
    return invalid_range(
        fmt::format("Could not parse Range {}: Could not parse comparator {} in {}", go_quote(term),
                    go_quote(op_text), go_quote(joined)));
  }
  auto version = parse(version_text);
  if (!version) {
    return invalid_range(fmt::format(
        "Could not parse Range {}: Could not parse version {} in {}: {}", go_quote(term),
        go_quote(version_text), go_quote(joined), version.error().message()));
  }
  return Comparator{*op, std::move(*version)};
}

} // namespace

Result<Range> parse_range(std::string_view text) {
  auto groups = OPM_TRY(split_alternatives(split_terms(text)));
  OPM_TRY(expand_wildcards(groups));
  Range range;
  range.alternatives.reserve(groups.size());
  for (const auto& group : groups) {
    std::vector<Comparator> all;
    all.reserve(group.size());
    for (const auto& term : group) {
      all.push_back(OPM_TRY(parse_comparator(term)));
    }
    range.alternatives.push_back(std::move(all));
  }
  return range;
}

} // namespace opm::util::semver
