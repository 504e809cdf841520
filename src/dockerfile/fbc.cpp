#include "dockerfile/fbc.hpp"

#include "util/strings.hpp"

#include <fmt/format.h>

namespace opm::dockerfile {

Result<void> validate(const CatalogImage& image) {
  if (image.base_image.empty()) {
    return util::fail(Errc::invalid, "base image is unset");
  }
  if (image.index_dir.empty()) {
    return util::fail(Errc::invalid, "index directory is unset");
  }
  return {};
}

std::string catalog_dockerfile(const CatalogImage& image) {
  std::string out;
  out.reserve(1024);
  out += "# The builder image is expected to contain\n"
         "# /bin/opm (with serve subcommand)\n";
  out += fmt::format("FROM {} as builder\n", image.builder_image);
  out += "\n"
         "# Copy FBC root into image at /configs and pre-populate serve cache\n";
  out += fmt::format("ADD {} /configs\n", image.index_dir);
  out += "RUN [\"/bin/opm\", \"serve\", \"/configs\", \"--cache-dir=/tmp/cache\", "
         "\"--cache-only\"]\n"
         "\n";
  out += fmt::format("FROM {}\n", image.base_image);
  if (image.base_image != "scratch") {
    out += "# The base image is expected to contain\n"
           "# /bin/opm (with serve subcommand) and /bin/grpc_health_probe\n"
           "\n"
           "# Configure the entrypoint and command\n"
           "ENTRYPOINT [\"/bin/opm\"]\n"
           "CMD [\"serve\", \"/configs\", \"--cache-dir=/tmp/cache\"]\n";
  } else {
    out += "# OLMv0 CatalogSources that use binary-less images must set:\n"
           "# spec:\n"
           "#   grpcPodConfig:\n"
           "#     extractContent:\n"
           "#       catalogDir: /configs\n"
           "#       cacheDir: /tmp/cache\n";
  }
  out += "\n"
         "COPY --from=builder /configs /configs\n"
         "COPY --from=builder /tmp/cache /tmp/cache\n"
         "\n"
         "# Set FBC-specific label for the location of the FBC root directory\n"
         "# in the image\n"
         "LABEL operators.operatorframework.io.index.configs.v1=/configs\n";
  if (!image.labels.empty()) {
    out += "\n"
           "# Set other custom labels\n";
    for (const auto& [key, value] : image.labels) {
      out += fmt::format("LABEL \"{}\"=\"{}\"\n", key, value);
    }
  }
  return out;
}

Result<std::map<std::string, std::string>> parse_labels(const std::vector<std::string>& entries) {
  std::map<std::string, std::string> labels;
  for (const auto& entry : entries) {
    auto eq = entry.find('=');
    if (eq == std::string::npos) {
      return util::fail(Errc::usage, fmt::format("invalid label {}", util::go_quote(entry)));
    }
    labels.insert_or_assign(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return labels;
}

} // namespace opm::dockerfile
