#pragma once

#include "util/error.hpp"

#include <string>

// index add --overwrite-latest.
namespace opm::sqlite {

class Connection;

// --overwrite-latest: make way for a new copy of `bundle`, which nothing may replace. Each
// channel holding it gets the bundle it replaced as head (or, in the default channel, none),
// then the bundle's rows and its deprecation are deleted. One transaction.
Result<void> remove_overwritten_head(Connection& db, const std::string& package,
                                     const std::string& bundle);

} // namespace opm::sqlite
