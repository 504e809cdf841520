#include "cmd/commands.hpp"
#include "dockerfile/fbc.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/path.hpp"
#include "util/strings.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cerrno>
#include <memory>
#include <sys/stat.h>

namespace opm::cmd {

namespace {

constexpr std::string_view k_default_image = "quay.io/operator-framework/opm:latest";

constexpr std::string_view k_dockerfile_long =
    R"(Generate a Dockerfile for a file-based catalog.

This command creates a Dockerfile in the same directory as the <fbcRootDir>
(named <fbcRootDir>.Dockerfile) that can be used to build the index. If a
Dockerfile with the same name already exists, this command will fail.

When specifying extra labels, note that if duplicate keys exist, only the last
value of each duplicate key will be added to the generated Dockerfile.

A separate builder and base image can be specified. The builder image may not be "scratch".
)";

struct DockerfileFlags {
  std::vector<std::string> args;
  std::string base_image{k_default_image};
  std::string binary_image{k_default_image};
  std::string builder_image{k_default_image};
  std::vector<std::string> labels;
  const CLI::Option* binary_option = nullptr;
  const CLI::Option* builder_option = nullptr;
};

// Go's os.Stat, reduced to what the command needs.
enum class PathState { missing, directory, other };
Result<PathState> stat_path(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      return PathState::missing;
    }
    return util::fail(Errc::io, fmt::format("stat {}: {}", path, util::errno_text(errno)));
  }
  return S_ISDIR(st.st_mode) ? PathState::directory : PathState::other;
}

Result<void> generate_dockerfile(const DockerfileFlags& flags, const CommandMeta& meta,
                                 Action& chosen) {
  std::string from_dir = util::clean_path(flags.args.at(0));
  std::string builder = flags.builder_image;
  if (builder == "scratch") {
    return util::fail(Errc::usage,
                      fmt::format("invalid builder image: {}", util::go_quote(builder)));
  }
  bool binary_set = meta.changed(flags.binary_option);
  std::string base = binary_set ? flags.binary_image : flags.base_image;
  if (binary_set && !meta.changed(flags.builder_option)) {
    builder = base; // the deprecated flag used to name both images
  }
  auto labels = OPM_TRY(dockerfile::parse_labels(flags.labels));

  auto [dir, index_name] = util::split_path(from_dir);
  std::string target = util::join_path(dir, index_name + ".Dockerfile");
  auto existing = stat_path(target);
  if (!existing) {
    return std::unexpected(std::move(existing).error());
  }
  if (*existing != PathState::missing) {
    return util::fail(Errc::invalid,
                      fmt::format("path {}: file already exists", util::go_quote(target)));
  }
  auto root = stat_path(from_dir);
  if (!root || *root == PathState::missing) {
    return util::fail(Errc::usage, root
                                       ? fmt::format("stat {}: no such file or directory", from_dir)
                                       : root.error().message());
  }
  if (*root != PathState::directory) {
    return util::fail(Errc::usage, fmt::format("provided root path {} is not a directory",
                                               util::go_quote(from_dir)));
  }

  dockerfile::CatalogImage image{base, builder, index_name, std::move(labels)};
  if (auto ok = dockerfile::validate(image); !ok) {
    chosen.style = FatalStyle::go_log;
    return ok;
  }
  // Unlike upstream, which creates the file first, nothing is written unless the whole
  // Dockerfile can be, and an existing file is never replaced.
  // An interrupt while writing removes the temporary file, then ends the process.
  util::InterruptScope interrupts;
  return util::write_file_atomic(target, dockerfile::catalog_dockerfile(image),
                                 util::Overwrite::no);
}

void add_dockerfile(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<DockerfileFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "dockerfile <fbcRootDir>",
                           .short_text = "Generate a Dockerfile for a file-based catalog",
                           .long_text = std::string(k_dockerfile_long),
                           .args = Args::exact(1)},
                          &flags->args);
  flags->binary_option =
      sub->add_option("--binary-image", flags->binary_image, "Image in which to build catalog.");
  sub->add_option("-i,--base-image", flags->base_image, "Image base to use to build catalog.");
  flags->builder_option =
      sub->add_option("-b,--builder-image", flags->builder_image, "Image to use as a build stage.");
  sub->add_option("-l,--extra-labels", flags->labels,
                  "Extra labels to include in the generated Dockerfile. Labels should be of the "
                  "form 'key=value'.");
  ctx.meta.deprecate(flags->binary_option, "use --base-image instead");
  ctx.meta.mutually_exclusive(sub, {"binary-image", "base-image"});
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, &chosen, flags]() -> Result<void> {
      return generate_dockerfile(*flags, ctx.meta, chosen);
    };
  });
}

} // namespace

void add_generate(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* generate = add_command(parent, ctx,
                               {.use = "generate",
                                .short_text = "Generate various artifacts for file-based catalogs",
                                .runnable = false});
  add_dockerfile(*generate, ctx, chosen);
}

} // namespace opm::cmd
