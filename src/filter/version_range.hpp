#pragma once

#include "util/error.hpp"
#include "util/semver.hpp"

#include <optional>
#include <string_view>
#include <vector>

// The version ranges of a filter configuration, in the syntax of Masterminds/semver v3
// constraints (what the FilterConfiguration design reads): "||" separates alternatives,
// commas or spaces join terms, "1.2 - 1.4" is an inclusive span, operators = != > >= => <
// <= =< ~ ~> ^ (none means =), and x, X, * or a missing part are wildcards. A version with a
// pre-release matches only a term that names a pre-release itself.
namespace opm::filter {

struct Bound {
  using Op = util::semver::Comparator::Op;
  Op op = Op::eq;
  util::semver::Version version;
  // outside: below `version` or at `upper` and above (without `upper`: below `version`),
  // instead of `op`.
  bool outside = false;
  std::optional<util::semver::Version> upper{};
  bool names_prerelease = false;

  [[nodiscard]] bool matches(const util::semver::Version& v) const;
};

struct VersionRange {
  std::vector<std::vector<Bound>> alternatives; // OR of ANDs

  [[nodiscard]] bool contains(const util::semver::Version& v) const;
};

// Fails with Masterminds' "improper constraint: TERM" for a term it cannot read.
Result<VersionRange> parse_version_range(std::string_view text);

} // namespace opm::filter
