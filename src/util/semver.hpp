#pragma once

#include "util/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// Semantic versions as github.com/blang/semver/v4 reads them: strict SemVer 2.0
// versions and its range syntax, with that library's exact error texts (scripts and
// catalog maintainers compare them).
namespace opm::util::semver {

// One dot-separated pre-release identifier: a number without leading zeros, or
// alphanumerics and '-'.
struct PreRelease {
  std::string text;         // the identifier when not numeric
  std::uint64_t number = 0; // the value when numeric
  bool numeric = false;

  [[nodiscard]] std::string to_string() const;
};

// Numeric identifiers sort before alphanumeric ones; numbers by value, text byte-wise.
int compare(const PreRelease& a, const PreRelease& b);

struct Version {
  std::uint64_t major = 0;
  std::uint64_t minor = 0;
  std::uint64_t patch = 0;
  std::vector<PreRelease> pre;
  std::vector<std::string> build; // ignored for precedence

  // "1.2.3-rc.1+b.5": strictly parsed versions print back exactly as written.
  [[nodiscard]] std::string to_string() const;
  void append_to(std::string& out) const;
};

// SemVer precedence: -1, 0 or 1. Build metadata does not count.
int compare(const Version& a, const Version& b);
inline bool operator==(const Version& a, const Version& b) { return compare(a, b) == 0; }
inline auto operator<=>(const Version& a, const Version& b) { return compare(a, b) <=> 0; }

// Strict parse (no "v" prefix, all three numbers, no leading zeros). Error texts as
// blang/semver: "Version string empty", "No Major.Minor.Patch elements found",
// `Invalid character(s) found in major number "v1"`, ... and Go strconv errors such as
// `strconv.ParseUint: parsing "99999999999999999999": value out of range`.
Result<Version> parse(std::string_view text);

// blang's ParseTolerant: surrounding spaces and a "v" prefix are dropped, leading zeroes
// of the three numbers removed and a missing minor or patch read as 0 ("v1.02" is 1.2.0),
// then parse(). A short version with "-" or "+" fails with "Short version cannot contain
// PreRelease/Build meta data".
Result<Version> parse_tolerant(std::string_view text);

// Upstream's BuildIdCompare: SemVer precedence, then build metadata compared as pre-release
// identifiers (a version without build metadata ranks lowest, so 1.0.0 < 1.0.0+1 < 1.0.0+2).
// Build ids that are no valid pre-release identifiers fail with
// "failed to convert build-id of <v> to prerelease version for comparison: <err>".
Result<int> build_id_compare(const Version& a, const Version& b);

// One pre-release identifier (blang's NewPRVersion): "Prerelease is empty",
// `Numeric PreRelease version must not contain leading zeroes "01"`,
// `Invalid character(s) found in prerelease "a_b"`.
Result<PreRelease> parse_prerelease(std::string_view text);

// A version range in blang/semver syntax: space-separated terms are ANDed, "||"
// separates alternatives, operators = == != ! > >= < <= (none means =), and "x"
// wildcards ("1.2.x", ">=1.x") expand to bounds.
struct Comparator {
  enum class Op { eq, ne, gt, ge, lt, le };
  Op op = Op::eq;
  Version version;

  [[nodiscard]] bool matches(const Version& v) const;
};

// Whether a version that compares to another as `comparison` (negative, zero or positive)
// satisfies `op` against it.
bool holds(Comparator::Op op, int comparison);

struct Range {
  std::vector<std::vector<Comparator>> alternatives; // OR of ANDs

  [[nodiscard]] bool contains(const Version& v) const;
};

// Error texts as blang's ParseRange, e.g. `Could not get version from string: "not"`,
// "First element in range is '||'", `Could not parse Range ">=4.1": Could not parse
// version "4.1" in ">=4.1": No Major.Minor.Patch elements found`.
Result<Range> parse_range(std::string_view text);

} // namespace opm::util::semver
