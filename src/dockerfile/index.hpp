#pragma once

#include <string>
#include <string_view>

// The Dockerfile of a SQLite index image, as upstream v1.26.5's `opm index` commands write it
// (pkg/containertools/dockerfilegenerator.go).
namespace opm::dockerfile {

inline constexpr std::string_view k_default_index_binary_image =
    "quay.io/operator-framework/opm:latest";
inline constexpr std::string_view k_index_database_label =
    "operators.operatorframework.io.index.database.v1";
inline constexpr std::string_view k_index_database_location = "/database/index.db";

// FROM `binary_image` (the default opm image when empty), the database label, the database
// file at `database_path` (relative to the build context) added as /database/index.db, and
// `opm registry serve` of it on port 50051.
std::string index_dockerfile(std::string_view binary_image, std::string_view database_path);

} // namespace opm::dockerfile
