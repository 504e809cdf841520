#pragma once

#include "util/error.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace opm::util {

// The first record of `text`, read as Go's encoding/csv Reader with its defaults
// (comma separator, no lazy quotes, "" escapes a quote, CRLF read as LF, blank lines
// skipped). Errors carry Go's texts: `parse error on line 1, column 3: bare " in
// non-quoted-field`, `... extraneous or missing " in quoted-field`, or `EOF` when
// there is no record at all.
Result<std::vector<std::string>> read_csv_record(std::string_view text);

} // namespace opm::util
