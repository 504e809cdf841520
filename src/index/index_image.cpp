#include "index/index_image.hpp"

#include "dockerfile/index.hpp"
#include "util/fs.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <optional>

namespace opm::index {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_configs_label = "operators.operatorframework.io.index.configs.v1";

// Removes what it names when it goes away.
class Removal {
public:
  Removal() = default;
  Removal(const Removal&) = delete;
  Removal& operator=(const Removal&) = delete;
  ~Removal() {
    for (const auto& p : m_paths) {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  }
  void add(fs::path p) { m_paths.push_back(std::move(p)); }

private:
  std::vector<fs::path> m_paths;
};

Result<fs::path> temp_dir(std::string prefix) {
  std::string pattern = prefix + "XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    return util::fail(Errc::io, fmt::format("mkdir {}: {}", prefix, util::errno_text(errno)));
  }
  return fs::path(pattern);
}

struct BuildContext {
  fs::path dir;        // "" = the current directory
  fs::path dockerfile; // relative to the current directory
};

Result<BuildContext> build_context(const ImageRequest& request, Removal& removal) {
  if (request.generate) {
    return BuildContext{
        {}, fs::path(request.out_dockerfile.empty() ? "index.Dockerfile" : request.out_dockerfile)};
  }
  BuildContext context{OPM_TRY(temp_dir("index_build_tmp")), request.out_dockerfile};
  removal.add(context.dir);
  if (context.dockerfile.empty()) {
    std::string pattern = "index.DockerfileXXXXXX";
    int fd = ::mkstemp(pattern.data());
    if (fd < 0) {
      return util::fail(Errc::io,
                        fmt::format("open index.Dockerfile: {}", util::errno_text(errno)));
    }
    ::close(fd);
    context.dockerfile = pattern;
    removal.add(context.dockerfile);
  }
  return context;
}

// The database file of --from-index unpacked into `work`, or "" when starting empty.
Result<std::optional<fs::path>> source_database(const ImageRequest& request,
                                                const ImageSteps& steps, const fs::path& work) {
  if (request.from_index.empty()) {
    return std::nullopt;
  }
  std::error_code ec;
  if (fs::is_regular_file(request.from_index, ec)) {
    return fs::path(request.from_index); // a database file, used as it is
  }
  steps.info(fmt::format("Pulling previous image {} to get metadata", request.from_index));
  auto labels = OPM_TRY(steps.labels(request.from_index));
  auto location = labels.find(std::string(dockerfile::k_index_database_label));
  if (location == labels.end()) {
    if (labels.contains(std::string(k_configs_label))) {
      return util::fail(
          Errc::invalid,
          "`opm index prune` only supports sqlite-based catalogs. See "
          "https://github.com/redhat-openshift-ecosystem/community-operators-prod/issues/793 "
          "for instructions on pruning a plaintext files backed catalog.");
    }
    return util::fail(Errc::invalid,
                      fmt::format("index image {} missing label {}", request.from_index,
                                  dockerfile::k_index_database_label));
  }
  std::string inside = location->second;
  while (inside.starts_with('/')) {
    inside.erase(0, 1);
  }
  OPM_TRY(steps.unpack(request.from_index, work, inside));
  return work / inside;
}

// Copies the source database (or nothing) to <context>/database/index.db.
Result<fs::path> copy_database(const std::optional<fs::path>& source, const fs::path& context) {
  fs::path dir = context / "database";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return util::fail(Errc::io, fmt::format("mkdir {}: {}", dir.string(), ec.message()));
  }
  fs::path target = dir / "index.db";
  int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    return util::fail(Errc::io,
                      fmt::format("open {}: {}", target.string(), util::errno_text(errno)));
  }
  ::close(fd);
  if (source && fs::exists(*source, ec)) {
    fs::copy_file(*source, target, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      return util::fail(Errc::io, fmt::format("copy {}: {}", source->string(), ec.message()));
    }
  }
  return target;
}

} // namespace

Result<void> update_index_image(
    const ImageRequest& request, const ImageSteps& steps,
    const std::function<Result<void>(const std::filesystem::path& database)>& change) {
  Removal removal;
  auto context = OPM_TRY(build_context(request, removal));
  fs::path database;
  {
    Removal unpacked;
    auto work = OPM_TRY(temp_dir("index_tmp_"));
    unpacked.add(work);
    database = OPM_TRY(copy_database(OPM_TRY(source_database(request, steps, work)), context.dir));
  }
  OPM_TRY(change(database));
  steps.info("Generating dockerfile");
  auto text = dockerfile::index_dockerfile(request.binary_image, database.string());
  steps.info(fmt::format("writing dockerfile: {}", context.dockerfile.string()));
  OPM_TRY(util::write_file_atomic(context.dockerfile, text));
  if (request.generate) {
    return {};
  }
  return steps.build({.dockerfile = context.dockerfile,
                      .database = database,
                      .binary_image = request.binary_image,
                      .tag = request.tag.empty() ? std::string(k_default_index_tag) : request.tag});
}

Result<void> with_index_database(
    const std::string& ref, const ImageSteps& steps,
    const std::function<Result<void>(const std::filesystem::path& database)>& read) {
  Removal unpacked;
  auto work = OPM_TRY(temp_dir("index_tmp_"));
  unpacked.add(work);
  auto database = OPM_TRY(source_database({.from_index = ref}, steps, work));
  return read(*database);
}

} // namespace opm::index
