#include "index/export.hpp"

#include "sqlite/connection.hpp"
#include "sqlite/package_read.hpp"
#include "util/fs.hpp"
#include "util/go_errors.hpp"
#include "util/path.hpp"
#include "util/strings.hpp"
#include "yaml/emitter.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <random>

namespace opm::index {

namespace fs = std::filesystem;

namespace {

struct BundleDir {
  std::string package;
  std::string version;
};

// Bundle image -> where its manifests go; a later package wins an image, as upstream's map.
Result<std::map<std::string, BundleDir>>
bundles_to_export(sqlite::Connection& db, const std::vector<std::string>& packages) {
  std::map<std::string, BundleDir> bundles;
  for (const auto& package : packages) {
    for (const auto& b : OPM_TRY(sqlite::package_bundle_images(db, package))) {
      bundles[b.image] = {package, b.version};
    }
  }
  return bundles;
}

// Go's %+q of the map: map["img":{"p" "v"}].
std::string quoted_bundles(const std::map<std::string, BundleDir>& bundles) {
  auto q = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') {
        out += '\\';
      }
      out += c;
    }
    return out + "\"";
  };
  std::string out = "map[";
  bool first = true;
  for (const auto& [image, dir] : bundles) {
    out +=
        fmt::format("{}{}:{{{} {}}}", first ? "" : " ", q(image), q(dir.package), q(dir.version));
    first = false;
  }
  return out + "]";
}

Result<void> export_bundle(const std::string& image, const fs::path& target, const Unpack& unpack) {
  std::string pattern = "bundle_tmpXXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    return util::fail(Errc::io, fmt::format("mkdir bundle_tmp: {}", util::errno_text(errno)));
  }
  struct Remove {
    fs::path dir;
    ~Remove() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } remove{fs::path(pattern) / ""};
  fs::path unpacked = fs::path(pattern) / "unpacked";
  OPM_TRY(unpack(image, unpacked));
  std::error_code ec;
  fs::create_directories(target, ec);
  fs::path manifests = unpacked / "manifests";
  if (!ec && !fs::exists(manifests, ec)) {
    return util::fail(Errc::not_found,
                      fmt::format("lstat {}: no such file or directory", manifests.string()));
  }
  if (!ec) {
    fs::copy(manifests, target, fs::copy_options::recursive | fs::copy_options::overwrite_existing,
             ec);
  }
  if (ec) {
    return util::fail(Errc::io, fmt::format("copy {}: {}", manifests.string(), ec.message()));
  }
  return {};
}

Result<void> write_package_yaml(sqlite::Connection& db, const std::string& package,
                                const fs::path& dir) {
  std::string default_channel = OPM_TRY(sqlite::default_channel(db, package)).value_or("");
  auto heads = OPM_TRY(sqlite::channel_heads(db, package));
  std::string text;
  yaml::Emitter e(text);
  e.begin_document();
  e.begin_mapping();
  e.key("packageName");
  e.string(package);
  e.key("channels");
  if (heads.empty()) {
    e.empty_sequence();
  } else {
    e.begin_sequence();
    for (const auto& [name, head] : heads) {
      e.item();
      e.begin_mapping();
      e.key("name");
      e.string(name);
      e.key("currentCSV");
      e.string(head);
      e.end_mapping();
    }
    e.end_sequence();
  }
  e.key("defaultChannel");
  e.string(default_channel);
  e.end_mapping();
  e.end_document();
  std::error_code ec;
  fs::create_directories(dir, ec);
  return util::write_file_atomic(dir / "package.yaml", text);
}

// Package names and bundle versions come from the database and become directories under the
// download folder; each must be one element, or a "../" or absolute value would escape it.
Result<void> check_export_paths(const std::vector<std::string>& packages,
                                const std::map<std::string, BundleDir>& bundles) {
  for (const auto& package : packages) {
    OPM_TRY(util::check_path_element("package name", package));
  }
  for (const auto& [image, dir] : bundles) {
    if (dir.version.empty()) {
      continue; // a random number is chosen, as upstream does
    }
    if (auto checked = util::check_path_element("bundle version", dir.version); !checked) {
      return std::unexpected(
          std::move(checked).error().wrap(fmt::format("bundle image {}", util::go_quote(image))));
    }
  }
  return {};
}

} // namespace

Result<void> export_packages(const ExportRequest& request, const Unpack& unpack) {
  auto db = OPM_TRY(sqlite::Connection::open(request.database, sqlite::OpenMode::read_only));
  auto packages = request.packages.empty() ? OPM_TRY(sqlite::package_names(db)) : request.packages;
  auto bundles = OPM_TRY(bundles_to_export(db, packages));
  OPM_TRY(check_export_paths(packages, bundles));
  if (request.info) {
    request.info(fmt::format("Preparing to pull bundles {}", quoted_bundles(bundles)));
  }
  std::error_code ec;
  fs::create_directories(request.download_folder, ec);
  if (ec) {
    return util::fail(Errc::io,
                      fmt::format("mkdir {}: {}", request.download_folder.string(), ec.message()));
  }
  std::minstd_rand random(std::random_device{}());
  std::vector<std::string> failures;
  for (const auto& [image, dir] : bundles) {
    auto version = dir.version.empty() ? std::to_string(random() % 10000) : dir.version;
    auto exported = export_bundle(image, request.download_folder / dir.package / version, unpack);
    if (!exported) {
      failures.push_back(fmt::format("exporting bundle image:{} failed with {}", image,
                                     exported.error().message()));
    }
  }
  if (!failures.empty()) {
    return util::fail(Errc::invalid, util::aggregate_text(failures));
  }
  for (const auto& package : packages) {
    if (request.note) {
      request.note(
          fmt::format("Writing package.yaml in {}", (request.download_folder / package).string()));
    }
    if (auto written = write_package_yaml(db, package, request.download_folder / package);
        !written) {
      failures.push_back(written.error().message());
    }
  }
  if (!failures.empty()) {
    return util::fail(Errc::invalid, util::aggregate_text(failures));
  }
  return {};
}

} // namespace opm::index
