#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

// The checks `opm alpha bundle validate` and `unpack` make on an unpacked bundle image
// (upstream's pkg/lib/bundle/validate.go): the format (manifests/ and metadata/, the
// annotations against the manifests' media type, dependencies.yaml) and the content (each
// manifest's kind, the CSV's name, replaces and install modes, CRD schemas, object names, the
// CRDs the CSV owns). Every problem is collected; those found in a file name it.
namespace opm::bundle {

// Upstream's debug and warning lines, as (level, message).
using CheckLog = std::function<void(std::string_view level, const std::string& message)>;

// Problems with the layout of `dir` and its metadata.
std::vector<std::string> check_format(const std::filesystem::path& dir, const CheckLog& log);

// Optional validators, as named by --optional-validators.
inline constexpr std::string_view k_bundle_objects_validator = "bundle-objects";
inline constexpr std::string_view k_operatorhub_validator = "operatorhub";

struct ContentChecks {
  std::set<std::string> optional; // optional validators to run as well
  // The categories the operatorhub validator allows (OPERATOR_BUNDLE_CATEGORIES upstream);
  // none: operatorhub.io's list.
  std::optional<std::set<std::string>> categories;
};

// Problems with the manifests in `manifests_dir` (none for a helm chart).
std::vector<std::string> check_content(const std::filesystem::path& manifests_dir,
                                       const ContentChecks& checks, const CheckLog& log);

// The "categories" list of a custom categories file (JSON). Errors read as upstream's:
// "reading category file: open <path>: ...", "unmarshaling category file: ...".
Result<std::set<std::string>> read_custom_categories(const std::filesystem::path& path);

// "Bundle validation errors: <a>,<b>", as upstream joins them.
std::string validation_errors_text(const std::vector<std::string>& problems);

// --optional-validators "a, b" -> {"a", "b"}.
std::set<std::string> parse_optional_validators(std::string_view flag);

} // namespace opm::bundle
