#include "util/semver.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

namespace opm::util::semver {

namespace {

constexpr std::string_view k_digits = "0123456789";
constexpr std::string_view k_alphanumerics =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789";

std::unexpected<Error> invalid(std::string message) {
  return fail(Errc::invalid, std::move(message));
}

// Every byte is one of `allowed` (all ASCII, so any non-ASCII byte fails). Empty is fine.
bool contains_only(std::string_view s, std::string_view allowed) {
  return std::ranges::all_of(s, [&](char c) { return allowed.find(c) != std::string_view::npos; });
}

bool has_leading_zeroes(std::string_view s) { return s.size() > 1 && s[0] == '0'; }

// Go's strconv.ParseUint(s, 10, 64) for a string of ASCII digits.
Result<std::uint64_t> parse_uint(std::string_view s) {
  std::uint64_t value = 0;
  if (s.empty()) {
    return invalid(fmt::format("strconv.ParseUint: parsing {}: invalid syntax", go_quote(s)));
  }
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range) {
    return invalid(fmt::format("strconv.ParseUint: parsing {}: value out of range", go_quote(s)));
  }
  if (ec != std::errc() || end != s.data() + s.size()) {
    return invalid(fmt::format("strconv.ParseUint: parsing {}: invalid syntax", go_quote(s)));
  }
  return value;
}

Result<std::uint64_t> parse_number(std::string_view s, std::string_view lower,
                                   std::string_view upper) {
  if (!contains_only(s, k_digits)) {
    return invalid(fmt::format("Invalid character(s) found in {} number {}", lower, go_quote(s)));
  }
  if (has_leading_zeroes(s)) {
    return invalid(fmt::format("{} number must not contain leading zeroes {}", upper, go_quote(s)));
  }
  return parse_uint(s);
}

} // namespace

std::string PreRelease::to_string() const { return numeric ? std::to_string(number) : text; }

int compare(const PreRelease& a, const PreRelease& b) {
  if (a.numeric != b.numeric) {
    return a.numeric ? -1 : 1;
  }
  if (a.numeric) {
    return a.number == b.number ? 0 : (a.number > b.number ? 1 : -1);
  }
  int c = a.text.compare(b.text);
  return c == 0 ? 0 : (c > 0 ? 1 : -1);
}

void Version::append_to(std::string& out) const {
  fmt::format_to(std::back_inserter(out), "{}.{}.{}", major, minor, patch);
  for (std::size_t i = 0; i < pre.size(); ++i) {
    out += i == 0 ? '-' : '.';
    if (pre[i].numeric) {
      fmt::format_to(std::back_inserter(out), "{}", pre[i].number);
    } else {
      out += pre[i].text;
    }
  }
  for (std::size_t i = 0; i < build.size(); ++i) {
    out += i == 0 ? '+' : '.';
    out += build[i];
  }
}

std::string Version::to_string() const {
  std::string out;
  append_to(out);
  return out;
}

int compare(const Version& a, const Version& b) {
  auto three_way = [](std::uint64_t x, std::uint64_t y) { return x == y ? 0 : (x > y ? 1 : -1); };
  if (int c = three_way(a.major, b.major); c != 0) {
    return c;
  }
  if (int c = three_way(a.minor, b.minor); c != 0) {
    return c;
  }
  if (int c = three_way(a.patch, b.patch); c != 0) {
    return c;
  }
  // A version without pre-release identifiers ranks above one with them.
  if (a.pre.empty() || b.pre.empty()) {
    return a.pre.empty() == b.pre.empty() ? 0 : (a.pre.empty() ? 1 : -1);
  }
  std::size_t n = std::min(a.pre.size(), b.pre.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (int c = compare(a.pre[i], b.pre[i]); c != 0) {
      return c;
    }
  }
  return a.pre.size() == b.pre.size() ? 0 : (a.pre.size() < b.pre.size() ? -1 : 1);
}

Result<PreRelease> parse_prerelease(std::string_view text) {
  if (text.empty()) {
    return invalid("Prerelease is empty");
  }
  PreRelease id;
  if (contains_only(text, k_digits)) {
    if (has_leading_zeroes(text)) {
      return invalid(fmt::format("Numeric PreRelease version must not contain leading zeroes {}",
                                 go_quote(text)));
    }
    id.number = OPM_TRY(parse_uint(text));
    id.numeric = true;
    return id;
  }
  if (!contains_only(text, k_alphanumerics)) {
    return invalid(fmt::format("Invalid character(s) found in prerelease {}", go_quote(text)));
  }
  id.text = std::string(text);
  return id;
}

Result<Version> parse(std::string_view text) {
  if (text.empty()) {
    return invalid("Version string empty");
  }
  std::size_t first_dot = text.find('.');
  std::size_t second_dot =
      first_dot == std::string_view::npos ? first_dot : text.find('.', first_dot + 1);
  if (second_dot == std::string_view::npos) {
    return invalid("No Major.Minor.Patch elements found");
  }
  Version v;
  v.major = OPM_TRY(parse_number(text.substr(0, first_dot), "major", "Major"));
  v.minor = OPM_TRY(
      parse_number(text.substr(first_dot + 1, second_dot - first_dot - 1), "minor", "Minor"));

  std::string_view patch = text.substr(second_dot + 1);
  std::string_view build;
  std::string_view pre;
  bool has_build = false;
  bool has_pre = false;
  if (std::size_t plus = patch.find('+'); plus != std::string_view::npos) {
    build = patch.substr(plus + 1);
    patch = patch.substr(0, plus);
    has_build = true;
  }
  if (std::size_t dash = patch.find('-'); dash != std::string_view::npos) {
    pre = patch.substr(dash + 1);
    patch = patch.substr(0, dash);
    has_pre = true;
  }
  v.patch = OPM_TRY(parse_number(patch, "patch", "Patch"));

  if (has_pre) {
    for (std::string_view id : split_view(pre, '.')) {
      v.pre.push_back(OPM_TRY(parse_prerelease(id)));
    }
  }
  if (has_build) {
    for (std::string_view id : split_view(build, '.')) {
      if (id.empty()) {
        return invalid("Build meta data is empty");
      }
      if (!contains_only(id, k_alphanumerics)) {
        return invalid(
            fmt::format("Invalid character(s) found in build meta data {}", go_quote(id)));
      }
      v.build.emplace_back(id);
    }
  }
  return v;
}

namespace {

// ParseTolerant's repair of one of the first three parts: "007" -> "7", "00" -> "0",
// "0x" -> "0x" (a part not starting with a digit after its zeroes gets one back).
std::string without_leading_zeroes(std::string part) {
  if (part.size() <= 1) {
    return part;
  }
  auto nonzero = part.find_first_not_of('0');
  part = nonzero == std::string::npos ? std::string() : part.substr(nonzero);
  if (part.empty() || part[0] < '0' || part[0] > '9') {
    part.insert(part.begin(), '0');
  }
  return part;
}

} // namespace

Result<Version> parse_tolerant(std::string_view text) {
  std::string_view rest = trim(text);
  if (rest.starts_with('v')) {
    rest.remove_prefix(1);
  }
  std::vector<std::string> parts;
  for (int i = 0; i < 2; ++i) {
    auto dot = rest.find('.');
    if (dot == std::string_view::npos) {
      break;
    }
    parts.push_back(without_leading_zeroes(std::string(rest.substr(0, dot))));
    rest.remove_prefix(dot + 1);
  }
  parts.push_back(without_leading_zeroes(std::string(rest)));
  if (parts.size() < 3) {
    if (parts.back().find_first_of("+-") != std::string::npos) {
      return invalid("Short version cannot contain PreRelease/Build meta data");
    }
    parts.resize(3, "0");
  }
  return parse(join(parts, "."));
}

Result<int> build_id_compare(const Version& a, const Version& b) {
  if (int c = compare(a, b); c != 0) {
    return c;
  }
  auto as_pre = [](const Version& v) -> Result<Version> {
    Version out{1, 0, 0, {}, {}};
    if (v.build.empty()) {
      return Version{};
    }
    for (const auto& id : v.build) {
      auto pre = parse_prerelease(id);
      if (!pre) {
        return std::unexpected(std::move(pre).error().wrap(
            fmt::format("failed to convert build-id of {} to prerelease version for comparison",
                        v.to_string())));
      }
      out.pre.push_back(std::move(*pre));
    }
    return out;
  };
  auto left = OPM_TRY(as_pre(a));
  auto right = OPM_TRY(as_pre(b));
  return compare(left, right);
}

} // namespace opm::util::semver
