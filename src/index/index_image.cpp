#include "index/index_image.hpp"

#include "dockerfile/index.hpp"
#include "sqlite/connection.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/owned_temp.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <random>
#include <sys/stat.h>

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
  void add(util::TempTree tree) { m_trees.push_back(std::move(tree)); }

private:
  std::vector<fs::path> m_paths;
  std::vector<util::TempTree> m_trees;
};

// A new "<prefix>XXXXXX" directory in the current directory.
Result<util::TempTree> temp_dir(std::string_view prefix) {
  auto dir = util::TempTree::make("", prefix);
  if (!dir) {
    return util::fail(Errc::io, fmt::format("mkdir {}: {}", prefix, dir.error().message()));
  }
  return dir;
}

// A new directory or file "./<prefix><decimal uint32>" in the current directory, named as Go's
// os.MkdirTemp("./", prefix) and os.CreateTemp("./", prefix) name upstream's, whose log lines
// show them ("writing dockerfile: ./index.Dockerfile1236734807").
enum class TempKind { directory, file };
Result<fs::path> go_temp(std::string_view prefix, TempKind kind) {
  thread_local std::mt19937 random{std::random_device{}()};
  for (int attempt = 0; attempt < 10000; ++attempt) {
    fs::path path = fmt::format("./{}{}", prefix, static_cast<std::uint32_t>(random()));
    bool made =
        kind == TempKind::directory
            ? ::mkdir(path.c_str(), 0700) == 0
            : util::Fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)).valid();
    if (made) {
      return path;
    }
    if (errno != EEXIST) {
      return util::fail(Errc::io,
                        fmt::format("{} {}: {}", kind == TempKind::directory ? "mkdir" : "open",
                                    path.string(), util::errno_text(errno)));
    }
  }
  return util::fail(Errc::io, fmt::format("./{}: too many existing files", prefix));
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
  auto dir = OPM_TRY(temp_dir("index_build_tmp"));
  BuildContext context{dir.path(), request.out_dockerfile};
  removal.add(std::move(dir));
  if (context.dockerfile.empty()) {
    context.dockerfile = OPM_TRY(go_temp("index.Dockerfile", TempKind::file));
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

bool same_file(const fs::path& a, const fs::path& b) {
  struct stat sa {};
  struct stat sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// The database of the build context, made beside its place as
// <dir>/.index.db.opm-<pid>-XXXXXX and renamed there only once it is complete. Until then it
// is removed on every path, with its directory when that was made for it, so a failure leaves
// the directory as it was.
class StagedDatabase {
public:
  static Result<StagedDatabase> make(const fs::path& database) {
    fs::path dir = database.parent_path();
    std::error_code ec;
    bool existed = fs::is_directory(dir, ec);
    fs::create_directories(dir, ec);
    if (ec) {
      return util::fail(Errc::io,
                        fmt::format("mkdir {}: {}", dir.string(), util::errno_text(ec.value())));
    }
    StagedDatabase staged(database, existed ? fs::path() : dir);
    std::string stem = "." + database.filename().string() + ".opm-";
    auto made = util::make_owned_temp_file(dir, stem);
    if (!made) {
      return util::fail(Errc::io,
                        fmt::format("open {}: {}", database.string(), made.error().message()));
    }
    staged.m_staged = made->path;
    mode_t mask = ::umask(0);
    ::umask(mask);
    (void)::fchmod(made->fd.fd, 0666 & ~mask);
    return staged;
  }
  StagedDatabase(StagedDatabase&& other) noexcept
      : m_database(std::move(other.m_database)), m_made_dir(std::move(other.m_made_dir)),
        m_staged(std::move(other.m_staged)) {
    other.m_made_dir.clear();
    other.m_staged.clear();
  }
  StagedDatabase(const StagedDatabase&) = delete;
  StagedDatabase& operator=(const StagedDatabase&) = delete;
  StagedDatabase& operator=(StagedDatabase&&) = delete;
  ~StagedDatabase() {
    std::error_code ec;
    if (!m_staged.empty()) {
      for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
        fs::remove(m_staged.string() + suffix, ec);
      }
      util::unregister_temp_path(m_staged);
    }
    if (!m_made_dir.empty()) {
      fs::remove(m_made_dir, ec); // only when empty: nothing of anyone else's goes
    }
  }
  [[nodiscard]] const fs::path& path() const { return m_staged; }

  // The whole database `source` into the staged file, read as SQLite reads it and never written.
  Result<void> seed(const fs::path& source) const {
    auto db = OPM_TRY(sqlite::Connection::open(source, sqlite::OpenMode::read_only));
    if (auto copied = db.backup_to(m_staged); !copied) {
      if (copied.error().code() == Errc::io) {
        return util::fail(Errc::io,
                          fmt::format("copy {}: {}", source.string(), copied.error().message()));
      }
      return copied;
    }
    return {};
  }

  Result<void> install() {
    if (::rename(m_staged.c_str(), m_database.c_str()) != 0) {
      return util::fail(Errc::io,
                        fmt::format("rename {}: {}", m_database.string(), util::errno_text(errno)));
    }
    util::unregister_temp_path(m_staged);
    m_staged.clear();
    m_made_dir.clear();
    return {};
  }

private:
  StagedDatabase(fs::path database, fs::path made_dir)
      : m_database(std::move(database)), m_made_dir(std::move(made_dir)) {}
  fs::path m_database;
  fs::path m_made_dir; // "" when it was there before
  fs::path m_staged;
};

// The database of --from-index (or an empty one) changed into <context>/database/index.db.
Result<fs::path>
changed_database(const ImageRequest& request, const ImageSteps& steps, const fs::path& context,
                 const std::function<Result<void>(const std::filesystem::path& database)>& change) {
  fs::path database = context / "database" / "index.db";
  std::optional<StagedDatabase> staged;
  {
    Removal unpacked;
    auto work = OPM_TRY(go_temp("index_tmp_", TempKind::directory));
    unpacked.add(work);
    auto source = OPM_TRY(source_database(request, steps, work));
    if (source && same_file(*source, database)) {
      // --from-index names the output itself: it is changed where it is, all at once.
      OPM_TRY(change(database));
      return database;
    }
    staged.emplace(OPM_TRY(StagedDatabase::make(database)));
    std::error_code ec;
    if (source && fs::exists(*source, ec)) {
      OPM_TRY(staged->seed(*source));
    }
  }
  OPM_TRY(change(staged->path()));
  OPM_TRY(staged->install());
  return database;
}

} // namespace

Result<void> update_index_image(
    const ImageRequest& request, const ImageSteps& steps,
    const std::function<Result<void>(const std::filesystem::path& database)>& change) {
  Removal removal;
  auto context = OPM_TRY(build_context(request, removal));
  fs::path database = OPM_TRY(changed_database(request, steps, context.dir, change));
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
  auto work = OPM_TRY(go_temp("index_tmp_", TempKind::directory));
  unpacked.add(work);
  auto database = OPM_TRY(source_database({.from_index = ref}, steps, work));
  return read(*database);
}

} // namespace opm::index
