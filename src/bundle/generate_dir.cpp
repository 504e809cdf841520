#include "bundle/generate_dir.hpp"

#include "bundle/package_dir.hpp"
#include "util/fs.hpp"
#include "util/path.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <sys/stat.h>

namespace opm::bundle {

namespace {

namespace fs = std::filesystem;

std::string absolute(const fs::path& working_dir, const std::string& path) {
  if (!path.empty() && path.front() == '/') {
    return util::clean_path(path);
  }
  return util::join_path(working_dir.string(), path);
}

bool path_exists(const fs::path& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 || errno != ENOENT;
}

Result<void> make_dirs(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return util::fail(Errc::io,
                      fmt::format("mkdir {}: {}", dir.string(), util::errno_text(ec.value())));
  }
  return {};
}

// Upstream's WriteFile: the directory made when missing, then the file.
Result<void> write_into(const fs::path& dir, std::string_view name, std::string_view content,
                        const InfoLog& info) {
  OPM_TRY(make_dirs(dir));
  info(fmt::format("Writing {} in {}", name, dir.string()));
  return util::write_file_atomic(dir / name, content);
}

// Upstream's copyManifestDir, including where it puts nested directories: the files of
// from/<sub> land in to/<basename of from>.
Result<void> copy_manifest_dir(const fs::path& from, const fs::path& to, bool overwrite) {
  auto entries = OPM_TRY(util::sorted_entries(from));
  OPM_TRY(make_dirs(to));
  for (const auto& entry : entries) {
    if (entry.is_dir) {
      OPM_TRY(copy_manifest_dir(from / entry.name, to / from.filename(), overwrite));
      continue;
    }
    fs::path target = to / entry.name;
    if (!overwrite && path_exists(target)) {
      continue;
    }
    auto content = OPM_TRY(util::read_file(from / entry.name));
    struct stat st {};
    if (::stat((from / entry.name).c_str(), &st) != 0) {
      return util::fail(Errc::io, fmt::format("stat {}: {}", (from / entry.name).string(),
                                              util::errno_text(errno)));
    }
    OPM_TRY(util::write_file_atomic(target, content));
    if (::chmod(target.c_str(), st.st_mode & 07777) != 0) {
      return util::fail(Errc::io,
                        fmt::format("chmod {}: {}", target.string(), util::errno_text(errno)));
    }
  }
  return {};
}

Result<void> infer_labels(const std::string& directory, BundleLabels& labels, const InfoLog& info) {
  std::vector<std::string> missing;
  if (labels.channels.empty()) {
    missing.emplace_back("channels");
  }
  if (labels.package.empty()) {
    missing.emplace_back("package name");
  }
  info(fmt::format("Bundle {} information not provided, inferring from parent package directory",
                   util::join(missing, " and ")));
  auto placement = place_in_package(directory);
  if (!placement) {
    return util::fail(Errc::invalid,
                      fmt::format("please manually input channels and packageName, error "
                                  "interpreting bundle from directory {}, {}",
                                  directory, placement.error().message()));
  }
  if (labels.channels.empty()) {
    labels.channels = util::join(placement->channels, ",");
    if (labels.channels.empty()) {
      return util::fail(Errc::invalid,
                        "error interpreting channels, please manually input channels instead");
    }
    info("Inferred channels: " + labels.channels);
  }
  if (labels.package.empty()) {
    labels.package = placement->package;
    info("Inferred package name: " + labels.package);
  }
  if (labels.default_channel.empty()) {
    labels.default_channel = placement->default_channel;
    info("Inferred default channel: " + labels.default_channel);
  }
  return {};
}

std::string relative_to(const fs::path& from, const fs::path& to) {
  std::string rel = to.lexically_relative(from).string();
  return rel.empty() ? "." : rel;
}

// Where the image's manifests/ and metadata/ come from: the manifests directory and a
// metadata/ beside it, or both under the output directory.
void place_outputs(const std::string& directory, const std::string& output_dir,
                   GeneratedBundle& out, const InfoLog& info) {
  fs::path copy_dir = output_dir.empty() ? fs::path(directory).parent_path() : fs::path(output_dir);
  if (output_dir.empty()) {
    out.manifests_dir = directory;
  } else {
    info("Generating output manifests directory");
    out.manifests_dir = copy_dir / "manifests";
  }
  out.metadata_dir = copy_dir / "metadata";
}

// The manifests copied (with an output directory) and annotations.yaml written, unless one
// that is kept disagrees, which is found before anything is written.
Result<void> write_metadata(const GenerateRequest& request, const std::string& directory,
                            const GeneratedBundle& out, const InfoLog& info) {
  fs::path annotations_path = out.metadata_dir / "annotations.yaml";
  bool write_annotations = request.overwrite || !path_exists(annotations_path);
  if (!write_annotations) {
    auto existing = OPM_TRY(util::read_file(annotations_path));
    info("An annotations.yaml already exists in the directory: metadata/");
    info("Validating existing annotations.yaml");
    auto agrees = check_existing_annotations(existing, out.labels);
    if (!agrees) {
      return util::fail(agrees.error().code(),
                        fmt::format("{}: {}", annotations_path.string(), agrees.error().message()));
    }
  }
  if (!request.output_dir.empty()) {
    OPM_TRY(copy_manifest_dir(directory, out.manifests_dir, request.overwrite));
  }
  if (write_annotations) {
    OPM_TRY(write_into(out.metadata_dir, "annotations.yaml", annotations_yaml(out.labels), info));
  }
  return {};
}

Result<void> write_dockerfile(const GenerateRequest& request, const GeneratedBundle& out,
                              const InfoLog& info) {
  std::string dockerfile = bundle_dockerfile(out.labels, request.base_image,
                                             relative_to(request.working_dir, out.manifests_dir),
                                             relative_to(request.working_dir, out.metadata_dir));
  if (request.overwrite || !path_exists(request.working_dir / "bundle.Dockerfile")) {
    return write_into(request.working_dir, "bundle.Dockerfile", dockerfile, info);
  }
  info("A bundle.Dockerfile already exists in current working directory: " +
       request.working_dir.string());
  return {};
}

} // namespace

Result<GeneratedBundle> generate(const GenerateRequest& request, const InfoLog& info) {
  std::string directory = absolute(request.working_dir, request.directory);
  std::string output_dir =
      request.output_dir.empty() ? "" : absolute(request.working_dir, request.output_dir);
  struct stat st {};
  if (::stat(directory.c_str(), &st) != 0 && errno == ENOENT) {
    return util::fail(Errc::not_found,
                      fmt::format("stat {}: no such file or directory", directory));
  }
  GeneratedBundle out;
  out.labels = {OPM_TRY(detect_media_type(directory)), request.package, request.channels,
                request.default_channel};
  if (out.labels.channels.empty() || out.labels.package.empty()) {
    OPM_TRY(infer_labels(directory, out.labels, info));
  }

  info("Building annotations.yaml");
  place_outputs(directory, output_dir, out, info);
  OPM_TRY(write_metadata(request, directory, out, info));
  info("Building Dockerfile");
  OPM_TRY(write_dockerfile(request, out, info));
  return out;
}

} // namespace opm::bundle
