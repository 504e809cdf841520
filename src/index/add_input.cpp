#include "index/detail/add_input.hpp"

#include "bundle/apis.hpp"
#include "bundle/bundle.hpp"
#include "bundle/csv.hpp"
#include "util/fs.hpp"
#include "util/owned_temp.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <random>
#include <sys/stat.h>

namespace opm::index::detail {

namespace {

namespace fs = std::filesystem;

// A file or directory removed when this goes away (unless released).
class Scratch {
public:
  explicit Scratch(fs::path p) : m_path(std::move(p)) {}
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (!m_path.empty()) {
      std::error_code ec;
      fs::remove_all(m_path, ec);
    }
  }
  [[nodiscard]] const fs::path& path() const { return m_path; }
  void release() { m_path.clear(); }

private:
  fs::path m_path;
};

// A new directory ./bundle_tmp<decimal uint32> in the current directory, named as Go's
// os.MkdirTemp("./", "bundle_tmp") names upstream's: the name shows in the per-bundle log lines.
// An owner marker beside it lets a later run remove it if this process is killed.
Result<fs::path> make_bundle_dir() {
  thread_local std::mt19937 random{std::random_device{}()};
  for (int attempt = 0; attempt < 10000; ++attempt) {
    fs::path dir = "./bundle_tmp" + std::to_string(static_cast<std::uint32_t>(random()));
    if (::mkdir(dir.c_str(), 0700) == 0) {
      util::Fd marker(
          ::open(util::owner_marker(dir).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
      return dir;
    }
    if (errno != EEXIST) {
      return util::fail(Errc::io,
                        fmt::format("mkdir {}: {}", dir.string(), util::errno_text(errno)));
    }
  }
  return util::fail(Errc::io, "mkdir ./bundle_tmp: too many existing directories");
}

Result<Input> to_input(const std::string& ref, bundle::Parsed parsed) {
  Input in;
  in.image = ref;
  in.dependencies_file = parsed.dependencies_file;
  in.properties_file = parsed.properties_file;
  in.package = parsed.package;
  in.channels = parsed.channels;
  in.default_channel = parsed.default_channel;
  auto& row = in.row;
  row.name = parsed.name;
  row.image = ref;
  row.version = OPM_TRY(bundle::csv_version(parsed.csv));
  row.skip_range = bundle::csv_skip_range(parsed.csv);
  row.replaces = OPM_TRY(bundle::csv_replaces(parsed.csv));
  row.skips = OPM_TRY(bundle::csv_skips(parsed.csv));
  row.substitutes_for = bundle::csv_substitutes_for(parsed.csv);
  row.csv_json = parsed.object_json.at(parsed.csv_index);
  row.object_json = std::move(parsed.object_json);
  if (!ref.empty()) {
    row.images.insert(ref);
  }
  for (const auto& image : OPM_TRY(bundle::csv_operator_images(parsed.csv))) {
    row.images.insert(image);
  }
  for (const auto& ri : OPM_TRY(bundle::csv_related_images(parsed.csv))) {
    row.images.insert(ri.image);
  }
  for (const auto& d : parsed.dependencies) {
    row.dependencies.push_back({d.type, d.value});
  }
  for (const auto& p : parsed.properties) {
    row.properties.insert({p.type, sqlite::marshal_raw(p.value)});
  }
  for (const auto& api : parsed.provided) {
    row.provided.insert({api.group, api.version, api.kind, api.plural});
  }
  for (const auto& api : OPM_TRY(bundle::required_apis(parsed.csv))) {
    row.required.insert({api.group, api.version, api.kind, api.plural});
  }
  return in;
}

} // namespace

Result<Input> load_bundle(const std::string& ref, const Unpack& unpack) {
  Scratch dir(OPM_TRY(make_bundle_dir()));
  Scratch marker(util::owner_marker(dir.path()));
  OPM_TRY(unpack(ref, dir.path()));
  auto parsed = OPM_TRY(bundle::parse_dir(dir.path()));
  auto in = OPM_TRY(to_input(ref, std::move(parsed)));
  in.dir = dir.path().string();
  return in;
}

} // namespace opm::index::detail
