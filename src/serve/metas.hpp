#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Objects of schemas other than olm.package, olm.channel, olm.bundle and olm.deprecations, as
// latest upstream stores them for api.ExperimentalRegistry: by schema and package ("" for
// objects without one), each the JSON text json.Encoder writes (keys sorted, no HTML
// escaping, a newline), named by its FNV-1a 64 hash (cache/metas/<schema>/[<pkg>/]<hex>.json).
namespace opm::serve {

using MetaFiles = std::map<std::string, std::string, std::less<>>; // file name -> text
using MetaIndex = std::map<std::pair<std::string, std::string>, MetaFiles>;

// Latest's check of a schema or package name used as a path:
// `invalid schema "a/b": must match ^[a-zA-Z0-9][a-zA-Z0-9._-]*$` (an empty package is none).
Result<void> check_meta_key(std::string_view schema, std::string_view package);

// The stored form of a catalog's other objects; a schema or package that is not a valid key
// fails as latest's cache build does ("invalid custom schema meta: ...").
Result<MetaIndex> index_metas(const std::vector<catalog::Meta>& others);

// Writes one cache file with the cache's mode.
using FileWriter =
    std::function<Result<void>(const std::filesystem::path& path, std::string_view text)>;

// The files under `<json_dir>/metas` (directories made with `dir_mode`).
Result<void> write_metas(const std::filesystem::path& json_dir, const MetaIndex& metas,
                         unsigned dir_mode, const FileWriter& write_file);
// Reads them back (a missing metas directory is an empty index).
Result<MetaIndex> read_metas(const std::filesystem::path& json_dir);

} // namespace opm::serve
