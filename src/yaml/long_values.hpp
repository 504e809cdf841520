#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// A shortcut for the long one-line values of catalogs. Internal to catalog/.
namespace opm::yaml {

// Long plain values (base64 data of bundle objects, up to hundreds of KB on one line) cost
// libyaml most of its time. Lines "key: <run>" whose run only has base64 characters (which
// cannot end or continue a plain scalar on that line) get the run swapped for a short
// placeholder before parsing; the scalar event of a placeholder gets the original text
// back. The result counts only if every placeholder came back as a whole plain scalar and
// nothing failed; otherwise the document is parsed again as it is.
struct LongValues {
  std::string text;                        // the document with placeholders
  std::vector<std::string_view> originals; // placeholder i stands for originals[i]
  std::string prefix;                      // of every placeholder; absent from the document

  // The original text of a plain scalar that is a placeholder.
  [[nodiscard]] std::optional<std::string_view> original(std::string_view scalar) const;
};

// How long a value must be to be swapped out.
inline constexpr std::size_t k_long_value = 256;

// nullopt when `body` has no long values (or could be confused by placeholders).
std::optional<LongValues> find_long_values(std::string_view body);

} // namespace opm::yaml
