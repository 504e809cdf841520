#pragma once

#include "index/detail/add_input.hpp"
#include "sqlite/connection.hpp"

#include <map>
#include <string>
#include <vector>

// What `index add` checks before and after it stores bundles (upstream v1.26.5's
// globalSanityCheck and its check that every added bundle stays reachable).
namespace opm::index::detail {

// Several failures as one error, as Go's aggregate prints them; its code is that of the first
// carrying exit code 2 or 3 (bundle or version already present), as upstream picks the exit
// status.
Error aggregate(const std::vector<Error>& errors);

// --overwrite-latest: per package, the bundles of the request already stored (with an image).
Result<std::map<std::string, std::vector<std::string>>>
overwritten_bundles(sqlite::Connection& db, const std::vector<Input>& inputs);

// Images and CSVs already on the index, overwrites that are not allowed, and names that
// would belong to two packages. With `overwrite`, a CSV already in a channel may come again
// if nothing replaces it there, once per package.
Result<void> sanity_check(sqlite::Connection& db, const std::vector<Input>& inputs, bool overwrite);

// Every added bundle must be reachable from the head of each of its channels.
Result<void> check_reachable(sqlite::Connection& db, const std::vector<Input>& inputs);

} // namespace opm::index::detail
