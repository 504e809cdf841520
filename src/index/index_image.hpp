#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <map>
#include <string>

// The build context of upstream v1.26.5's `opm index add|rm|prune|prune-stranded`
// (pkg/lib/indexer): the database of --from-index (or an empty one) copied into the
// context, changed there, then a Dockerfile written and, without --generate, built.
namespace opm::index {

inline constexpr std::string_view k_default_index_tag = "operator-registry-index:latest";

struct ImageRequest {
  bool generate = false;           // keep ./database/index.db and the Dockerfile; build nothing
  std::string out_dockerfile = {}; // the Dockerfile's name ("" = index.Dockerfile or a temp file)
  // The index image to start from ("" = an empty database); an existing file is taken as
  // the database itself.
  std::string from_index = {};
  std::string binary_image = {}; // FROM of the Dockerfile ("" = upstream's opm image)
  std::string tag = {};          // of the built image ("" = operator-registry-index:latest)
};

// What a build of the index image is given.
struct BuildInput {
  std::filesystem::path dockerfile; // relative to the current directory, the build context
  std::filesystem::path database;   // the database the Dockerfile adds
  std::string binary_image;         // its FROM ("" = upstream's opm image)
  std::string tag;
};

struct ImageSteps {
  // The index image's config labels, then its files into an empty directory.
  std::function<Result<std::map<std::string, std::string>>(const std::string& ref)> labels;
  std::function<Result<void>(const std::string& ref, const std::filesystem::path& dir,
                             const std::string& database)>
      unpack;
  // Builds the image from the Dockerfile with the current directory as context.
  std::function<Result<void>(const BuildInput& input)> build;
  std::function<void(const std::string& message)> info;
};

// Runs `change` on the database copy in the build context, then writes the Dockerfile and,
// unless generating, builds it. Temporary directories and files (index_build_tmp*,
// index_tmp_*, a temporary Dockerfile) are removed on every path.
Result<void> update_index_image(
    const ImageRequest& request, const ImageSteps& steps,
    const std::function<Result<void>(const std::filesystem::path& database)>& change);

// Runs `read` on the database of the index image `ref` (or the database file `ref`), unpacked
// into ./index_tmp_* for the time of the call.
Result<void>
with_index_database(const std::string& ref, const ImageSteps& steps,
                    const std::function<Result<void>(const std::filesystem::path& database)>& read);

} // namespace opm::index
