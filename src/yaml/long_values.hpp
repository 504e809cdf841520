#pragma once

#include <cstddef>
#include <deque>
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
// back. Literal block scalars ("key: |", "|-" or "|+" ending the line) are swapped the same
// way, their value worked out here as libyaml's scanner would, when their text is plainly
// laid out (indented with spaces only, printable, no carriage returns). The result counts only
// if every placeholder came back as a whole plain scalar and nothing failed; otherwise the
// document is parsed again as it is.
struct LongValues {
  // What a placeholder stands for: a plain scalar's text, or a literal block's value.
  struct Original {
    std::string_view text;
    bool plain = true;
  };

  std::string text;                     // the document with placeholders
  std::vector<Original> originals;      // placeholder i stands for originals[i]
  std::deque<std::string> block_values; // what the literal blocks' originals view
  std::string prefix;                   // of every placeholder; absent from the document

  // What a plain scalar that is a placeholder stands for.
  [[nodiscard]] std::optional<Original> original(std::string_view scalar) const;
};

// How long a value must be to be swapped out.
inline constexpr std::size_t k_long_value = 256;

// nullopt when `body` has no long values or literal blocks (or could be confused by
// placeholders). Long one-line values are looked for only with `long_lines`.
std::optional<LongValues> find_long_values(std::string_view body, bool long_lines = true);

} // namespace opm::yaml
