#pragma once

#include <string_view>

// How go-yaml v2 (YAML 1.1) resolves an untagged plain scalar, as far as the writer needs it.
namespace opm::yaml {

// True when the string `s`, written as a plain scalar, would read back as the same string:
// go-yaml v2 resolves it to !!str (not null, bool, int, float or timestamp) and it is not a
// base-60 number such as 1:20. Such strings may be written plain; others are double-quoted.
bool plain_reads_as_string(std::string_view s);

} // namespace opm::yaml
