#include "cli/usage.hpp"
#include "cmd/commands.hpp"
#include "cmd/registry_options.hpp"
#include "cmd/required_flags.hpp"
#include "cmd/string_lists.hpp"
#include "index/add.hpp"
#include "index/container_tool.hpp"
#include "index/deprecate.hpp"
#include "index/export.hpp"
#include "index/index_image.hpp"
#include "index/remove.hpp"
#include "registry/puller.hpp"
#include "sqlite/deprecation.hpp"
#include "util/interrupt.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <memory>

namespace opm::cmd {

namespace {

const std::string k_long_suffix =
    std::string("\n\n") + std::string(sqlite::k_sqlite_deprecation_notice);

constexpr std::string_view k_generate_usage =
    "if enabled, just creates the dockerfile and saves it to local disk";
constexpr std::string_view k_out_dockerfile_usage =
    "if generating the dockerfile, this flag is used to (optionally) specify a dockerfile name";
constexpr std::string_view k_binary_image_usage = "container image for on-image `opm` command";
constexpr std::string_view k_tag_usage = "custom tag for container image being built";
constexpr std::string_view k_build_tool_usage =
    "tool to build container images. One of: [docker, podman]. Defaults to podman. Overrides "
    "part of container-tool.";
constexpr std::string_view k_pull_tool_usage =
    "tool to pull container images. One of: [none, docker, podman]. Defaults to none. "
    "Overrides part of container-tool.";

// The flags every image-building index command shares.
struct IndexFlags {
  bool debug = false;
  bool generate = false;
  std::string out_dockerfile;
  std::string from_index;
  std::string binary_image;
  std::string container_tool;
  std::string build_tool;
  std::string pull_tool;
  std::string tag;
  bool permissive = false;
  std::vector<std::string> list; // --bundles, --operators or --packages
  std::string mode = "replaces";
  bool overwrite_latest = false;
  bool enable_alpha = false;
};

struct Tools {
  index::ContainerTool pull = index::ContainerTool::none;
  index::ContainerTool build = index::ContainerTool::podman;
};

// add, rm and deprecatetruncate: --pull-tool and --build-tool, or --container-tool for both.
// They share add's tool check, and its message.
Result<Tools> split_tools(const IndexFlags& flags) {
  if (flags.build_tool == "none") {
    return util::fail(Errc::invalid, "none is not a valid container-tool for index add");
  }
  std::string pull = flags.pull_tool;
  std::string build = flags.build_tool;
  if (!flags.container_tool.empty()) {
    if (!pull.empty() || !build.empty()) {
      return util::fail(Errc::invalid,
                        "container-tool cannot be set alongside pull-tool or build-tool");
    }
    pull = build = flags.container_tool;
  }
  return Tools{
      index::container_tool(pull.empty() ? "none" : pull, index::ContainerTool::none),
      index::container_tool(build.empty() ? "podman" : build, index::ContainerTool::podman)};
}

// prune and prune-stranded: --container-tool for both (default podman).
Result<Tools> single_tool(const IndexFlags& flags) {
  if (flags.container_tool == "none") {
    return util::fail(Errc::invalid, "none is not a valid container-tool for index prune");
  }
  auto tool = index::container_tool(flags.container_tool, index::ContainerTool::podman);
  return Tools{tool, tool};
}

// How the command reaches images and logs, for one run.
struct Session {
  Context& ctx;
  Tools tools;
  bool use_http = false;
  std::unique_ptr<registry::Puller> puller;
  std::vector<util::LogField> fields;
  std::size_t jobs = 1; // bundles pulled at once by the built-in client

  void log(std::string_view level, const std::string& message,
           std::vector<util::LogField> extra = {}) const {
    auto all = fields;
    all.insert(all.end(), extra.begin(), extra.end());
    ctx.err << util::logrus_line(level, message, ctx.err_is_tty, all);
  }

  index::ImageSteps steps() {
    return {.labels = [this](const std::string& ref) -> Result<std::map<std::string, std::string>> {
              if (tools.pull == index::ContainerTool::none) {
                return puller->labels(ref);
              }
              // Upstream pulls, then pulls again to read the labels.
              OPM_TRY(index::pull_image(tools.pull, ref, use_http));
              return index::pull_labels(tools.pull, ref, use_http);
            },
            .unpack = [this](const std::string& ref, const std::filesystem::path& dir,
                             const std::string& database) -> Result<void> {
              if (tools.pull == index::ContainerTool::none) {
                return puller->unpack(ref, dir, {database});
              }
              return index::copy_image_files(tools.pull, ref, dir);
            },
            .build = [this](const std::filesystem::path& dockerfile, const std::string& tag)
                -> Result<void> { return index::build_image(tools.build, dockerfile, tag); },
            .info = [this](const std::string& message) { log("info", message); }};
  }

  // Bundle images into an empty directory, with the pull tool.
  index::Unpack bundle_unpack() {
    return [this](const std::string& ref, const std::filesystem::path& dir) -> Result<void> {
      if (tools.pull == index::ContainerTool::none) {
        return puller->unpack(ref, dir, {"manifests", "metadata"});
      }
      OPM_TRY(index::pull_image(tools.pull, ref, use_http));
      return index::copy_image_files(tools.pull, ref, dir);
    };
  }
};

Result<std::unique_ptr<Session>> open_session(Context& ctx, Tools tools) {
  if (auto ok = registry::check_flag_combination(ctx.global.use_http, ctx.global.skip_tls_verify,
                                                 ctx.global.skip_tls);
      !ok) {
    return std::unexpected(ok.error());
  }
  auto session = std::make_unique<Session>(Session{ctx, tools, false, nullptr, {}});
  auto options = registry_options(ctx);
  session->use_http = options.use_http;
  session->jobs = tools.pull == index::ContainerTool::none ? options.jobs : 1;
  session->puller = registry::make_puller(std::move(options));
  return session;
}

index::ImageRequest image_request(const IndexFlags& flags) {
  return {.generate = flags.generate,
          .out_dockerfile = flags.out_dockerfile,
          .from_index = flags.from_index,
          .binary_image = flags.binary_image,
          .tag = flags.tag};
}

// The flags of add, rm and deprecatetruncate, in upstream's order of declaration.
void add_image_flags(CLI::App& sub, IndexFlags& flags, bool with_pull_build,
                     const std::string& from_index_usage, const std::string& tool_usage,
                     const std::string& tool_default = {}) {
  sub.add_flag("--debug", flags.debug, "enable debug logging")->group("");
  sub.add_flag("--generate", flags.generate, std::string(k_generate_usage));
  sub.add_option("-d,--out-dockerfile", flags.out_dockerfile, std::string(k_out_dockerfile_usage));
  sub.add_option("-f,--from-index", flags.from_index, from_index_usage);
  sub.add_option("-i,--binary-image", flags.binary_image, std::string(k_binary_image_usage));
  flags.container_tool = tool_default;
  sub.add_option("-c,--container-tool", flags.container_tool, tool_usage);
  if (with_pull_build) {
    sub.add_option("-u,--build-tool", flags.build_tool, std::string(k_build_tool_usage));
    sub.add_option("-p,--pull-tool", flags.pull_tool, std::string(k_pull_tool_usage));
  }
  sub.add_option("-t,--tag", flags.tag, std::string(k_tag_usage));
}

// Prints the error as cobra does (message and usage) and keeps its exit code.
Result<void> fail_like_cobra(Context& ctx, const CLI::App& sub, const Error& e) {
  ctx.err << "Error: " << e.message() << "\n" << usage_text(sub, ctx.meta) << "\n";
  return std::unexpected(Error(e.code(), ""));
}

// rm and prune report a package that cannot be removed as logrus fatal, without usage.
Result<void> fail_removal(Context& ctx, const CLI::App& sub, const Error& e) {
  if (e.message().starts_with("error deleting packages from database: ")) {
    ctx.err << util::logrus_line("fatal", "permissive mode disabled", ctx.err_is_tty,
                                 {{"error", e.message()}});
    return std::unexpected(Error(Errc::invalid, ""));
  }
  return fail_like_cobra(ctx, sub, e);
}

// Runs `work` in a session for `tools`, then releases what the session pulled. A session that
// cannot open fails as cobra prints it; what `work` returns goes to `report`.
template <typename Work>
Result<void> with_session(Context& ctx, const CLI::App& sub, Tools tools,
                          Result<void> (*report)(Context&, const CLI::App&, const Error&),
                          Work work) {
  auto session = open_session(ctx, tools);
  if (!session) {
    return fail_like_cobra(ctx, sub, session.error());
  }
  auto done = work(**session);
  (*session)->puller->destroy();
  if (!done) {
    return report(ctx, sub, done.error());
  }
  return {};
}

Result<index::Mode> parse_mode(const std::string& text) {
  std::string mode = text;
  std::transform(mode.begin(), mode.end(), mode.begin(), ::tolower);
  if (mode == "replaces") {
    return index::Mode::replaces;
  }
  if (mode == "semver") {
    return index::Mode::semver;
  }
  if (mode == "semver-skippatch") {
    return index::Mode::semver_skippatch;
  }
  return util::fail(Errc::invalid, fmt::format("Invalid channel update mode {} specified", text));
}

constexpr std::string_view k_add_long =
    "Add operator bundles to an index.\n\n"
    " This command will add the given set of bundle images (specified by the --bundles option) "
    "to an index image (provided by the --from-index option).\n\n"
    " If multiple bundles are given with '--mode=replaces' (the default), bundles are added to "
    "the index by order of ascending (semver) version unless the update graph specified by "
    "replaces requires a different input order; e.g. 1.0.0 replaces 1.0.1 would result in "
    "[1.0.1, 1.0.0] instead of the [1.0.0, 1.0.1] normally expected of semver. However, for "
    "most cases (e.g. 1.0.1 replaces 1.0.0) the bundle with the highest version is used to set "
    "the default channel of the related package.\n\n"
    " Caveat: in replaces mode, the head of a channel is always the bundle with the highest "
    "semver. Any bundles upgrading from this channel-head will be pruned.\n"
    "----------\n"
    " An upgrade graph that looks like:\n"
    "----------\n"
    " 0.1.1 -> 0.1.2 -> 0.1.2-1\n"
    "----------\n"
    " will be pruned on add to:\n"
    "----------\n"
    " 0.1.1 -> 0.1.2";

constexpr std::string_view k_add_example =
    "  # Create an index image from scratch with a single bundle image\n"
    "  %[1]s --bundles "
    "quay.io/operator-framework/operator-bundle-prometheus@sha256:"
    "a3ee653ffa8a0d2bbb2fabb150a94da6e878b6e9eb07defd40dc884effde11a0 --tag "
    "quay.io/operator-framework/monitoring:1.0.0\n"
    "  \n"
    "  # Add a single bundle image to an index image\n"
    "  %[1]s --bundles quay.io/operator-framework/operator-bundle-prometheus:0.15.0 "
    "--from-index quay.io/operator-framework/monitoring:1.0.0 --tag "
    "quay.io/operator-framework/monitoring:1.0.1\n"
    "  \n"
    "  # Add multiple bundles to an index and generate a Dockerfile instead of an image\n"
    "  %[1]s --bundles "
    "quay.io/operator-framework/operator-bundle-prometheus:0.15.0,quay.io/operator-framework/"
    "operator-bundle-prometheus:0.22.2 --generate";

std::string add_example() {
  std::string text(k_add_example);
  for (auto at = text.find("%[1]s"); at != std::string::npos; at = text.find("%[1]s")) {
    text.replace(at, 5, "opm index add");
  }
  return text;
}

void add_index_add(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<IndexFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "add",
                           .short_text = "Add operator bundles to an index.",
                           .long_text = std::string(k_add_long) + k_long_suffix,
                           .example = add_example(),
                           .args = Args::none()});
  add_image_flags(*sub, *flags, true, "previous index to add to",
                  "tool to interact with container images (save, build, etc.). One of: [docker, "
                  "podman]");
  // Not required through CLI11, which refuses the empty list upstream accepts.
  auto* bundles_flag =
      sub->add_option("-b,--bundles", flags->list, "comma separated list of bundles to add");
  sub->add_flag("--permissive", flags->permissive, "allow registry load errors");
  sub->add_option("--mode", flags->mode,
                  "graph update mode that defines how channel graphs are updated. One of: "
                  "[replaces, semver, semver-skippatch]");
  sub->add_flag("--overwrite-latest", flags->overwrite_latest,
                "overwrite the latest bundles (channel heads) with those of the same csv name "
                "given by --bundles")
      ->group("");
  sub->add_flag("--enable-alpha", flags->enable_alpha,
                "enable unsupported alpha features of the OPM CLI")
      ->group("");
  sub->callback([&ctx, &chosen, sub, flags, bundles_flag] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags, bundles_flag]() -> Result<void> {
      OPM_TRY(check_required(ctx, {bundles_flag}));
      auto mode = parse_mode(flags->mode);
      if (!mode) {
        return fail_like_cobra(ctx, *sub, mode.error());
      }
      auto tools = split_tools(*flags);
      if (!tools) {
        return fail_like_cobra(ctx, *sub, tools.error());
      }
      // An interrupt stops the pulls and keeps the database as it was; the signal then ends
      // the process once the temporary files are gone.
      util::InterruptScope interrupts;
      return with_session(ctx, *sub, *tools, fail_like_cobra, [&](Session& s) -> Result<void> {
        auto bundles = split_values(flags->list);
        s.fields = {{"bundles", go_list(bundles)}};
        s.log("info", "building the index");
        auto done = index::update_index_image(
            image_request(*flags), s.steps(), [&](const std::filesystem::path& db) -> Result<void> {
              auto added = index::add(
                  {.database = db,
                   .bundles = bundles,
                   .mode = *mode,
                   .overwrite_latest = flags->overwrite_latest,
                   .enable_alpha = flags->enable_alpha,
                   .permissive = flags->permissive,
                   .tolerated =
                       [&s](const Error& e) {
                         s.log("warning", "permissive mode enabled", {{"error", e.message()}});
                       },
                   .cancelled = util::interrupted,
                   .jobs = s.jobs},
                  s.bundle_unpack());
              if (!added) {
                s.log("error", "permissive mode disabled", {{"error", added.error().message()}});
              }
              return added;
            });
        return done;
      });
    };
  });
}

// rm (delete the listed operators) and prune (keep only the listed packages).
struct PackagesCommand {
  std::string use;
  std::string short_text;
  std::string list_flag;
  std::string list_usage;
  std::string from_index_usage;
  std::string field;       // the list's log field
  std::string start;       // the first log line
  bool split_tools = true; // rm: --pull-tool/--build-tool; prune: --container-tool only
  Result<void> (*run)(const index::RemoveRequest&);
};

void add_index_packages(CLI::App& parent, Context& ctx, Action& chosen,
                        const PackagesCommand& spec) {
  auto flags = std::make_shared<IndexFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = spec.use,
                           .short_text = spec.short_text,
                           .long_text = spec.short_text + k_long_suffix,
                           .args = Args::none()});
  add_image_flags(*sub, *flags, spec.split_tools, spec.from_index_usage,
                  spec.split_tools ? "tool to interact with container images (save, build, "
                                     "etc.). One of: [none, docker, podman]"
                                   : "tool to interact with container images (save, build, "
                                     "etc.). One of: [docker, podman]",
                  spec.split_tools ? "" : "podman");
  const CLI::Option* from_flag = sub->get_option("--from-index");
  const CLI::Option* list_flag = sub->add_option(spec.list_flag, flags->list, spec.list_usage);
  sub->add_flag("--permissive", flags->permissive, "allow registry load errors");
  sub->callback([&ctx, &chosen, sub, flags, spec, from_flag, list_flag] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags, spec, from_flag, list_flag]() -> Result<void> {
      OPM_TRY(check_required(ctx, {from_flag, list_flag}));
      auto tools = spec.split_tools ? split_tools(*flags) : single_tool(*flags);
      if (!tools) {
        return fail_like_cobra(ctx, *sub, tools.error());
      }
      return with_session(ctx, *sub, *tools, fail_removal, [&](Session& s) -> Result<void> {
        auto list = split_values(flags->list);
        s.fields = {{spec.field, go_list(list)}};
        s.log("info", spec.start);
        auto done = index::update_index_image(
            image_request(*flags), s.steps(), [&](const std::filesystem::path& db) {
              return spec.run(
                  {.database = db,
                   .packages = list,
                   .permissive = flags->permissive,
                   .tolerated = [&s](const Error& e) {
                     s.log("warning", "permissive mode enabled", {{"error", e.message()}});
                   }});
            });
        return done;
      });
    };
  });
}

void add_index_prune_stranded(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<IndexFlags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = "prune-stranded",
       .short_text = "prune an index of stranded bundles",
       .long_text = "prune an index of stranded bundles - bundles that are not associated with a "
                    "particular package" +
                    k_long_suffix,
       .args = Args::none()});
  add_image_flags(*sub, *flags, false, "index to prune",
                  "tool to interact with container images (save, build, etc.). One of: [docker, "
                  "podman]",
                  "podman");
  const CLI::Option* from_flag = sub->get_option("--from-index");
  sub->callback([&ctx, &chosen, sub, flags, from_flag] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags, from_flag]() -> Result<void> {
      OPM_TRY(check_required(ctx, {from_flag}));
      auto tools = single_tool(*flags);
      if (!tools) {
        return fail_like_cobra(ctx, *sub, tools.error());
      }
      return with_session(ctx, *sub, *tools, fail_like_cobra, [&](Session& s) -> Result<void> {
        s.log("info", "pruning stranded bundles from the index");
        auto done = index::update_index_image(
            image_request(*flags), s.steps(),
            [](const std::filesystem::path& db) { return index::prune_stranded(db); });
        return done;
      });
    };
  });
}

constexpr std::string_view k_export_long =
    "Export an operator from an index image into the appregistry format.\n\n"
    " This command will take an index image (specified by the --index option), parse it for the "
    "given operator(s) (set by the --package option) and export the operator metadata into an "
    "appregistry compliant format (a package.yaml file).\n\n"
    " Note: the appregistry format is being deprecated in favor of the new index image and image "
    "bundle format.";

struct ExportFlags {
  bool debug = false;
  std::string index;
  std::vector<std::string> packages;
  std::vector<std::string> xpackages;
  std::string download_folder = "downloaded";
  std::string container_tool = "none";
};

void add_index_export(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<ExportFlags>();
  auto* sub =
      add_command(parent, ctx,
                  {.use = "export",
                   .short_text = "Export an operator from an index into the appregistry format",
                   .long_text = std::string(k_export_long) + k_long_suffix,
                   .args = Args::none()});
  sub->add_flag("--debug", flags->debug, "enable debug logging")->group("");
  const CLI::Option* index_flag =
      sub->add_option("-i,--index", flags->index, "index to get package from");
  auto* package_flag = sub->add_option("-p,--package", flags->packages,
                                       "comma separated list of packages to export");
  sub->add_option("-f,--download-folder", flags->download_folder,
                  "directory where downloaded operator bundle(s) will be stored");
  sub->add_option("-c,--container-tool", flags->container_tool,
                  "tool to interact with container images (save, build, etc.). One of: [none, "
                  "docker, podman]");
  auto* xpackage_flag = sub->add_option("-o,--xpackage", flags->xpackages,
                                        "deprecated, please use --package option instead")
                            ->group("");
  sub->callback([&ctx, &chosen, sub, flags, index_flag, package_flag, xpackage_flag] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags, index_flag, package_flag, xpackage_flag]() -> Result<void> {
      OPM_TRY(check_required(ctx, {index_flag}));
      if (ctx.meta.changed(package_flag) && ctx.meta.changed(xpackage_flag)) {
        return fail_like_cobra(
            ctx, *sub,
            Error(Errc::invalid, "cannot simultaneously set '-p' and '-o' flags, remove '-o'"));
      }
      auto tool = index::container_tool(flags->container_tool, index::ContainerTool::none);
      return with_session(
          ctx, *sub, {tool, tool}, fail_like_cobra, [&](Session& s) -> Result<void> {
            auto packages =
                split_values(ctx.meta.changed(xpackage_flag) ? flags->xpackages : flags->packages);
            s.fields = {{"index", flags->index}, {"package", go_list(packages)}};
            s.log("info", "export from the index");
            auto done = index::with_index_database(
                flags->index, s.steps(), [&](const std::filesystem::path& db) {
                  return index::export_packages(
                      {.database = db,
                       .packages = packages,
                       .download_folder = flags->download_folder,
                       .info = [&s](const std::string& m) { s.log("info", m); },
                       .note =
                           [&ctx](const std::string& m) {
                             ctx.err << util::logrus_line("info", m, ctx.err_is_tty);
                           }},
                      s.bundle_unpack());
                });
            return done;
          });
    };
  });
}

constexpr std::string_view k_deprecate_long =
    "Deprecate and truncate operator bundles from an index.\n\n"
    " Deprecated bundles will no longer be installable. Bundles that are replaced by deprecated "
    "bundles will be removed entirely from the index.\n\n"
    " For example:\n\n"
    "  Given the update graph in quay.io/my/index:v1\n"
    "  1.4.0 -- replaces -> 1.3.0 -- replaces -> 1.2.0 -- replaces -> 1.1.0\n"
    "  \n"
    "  Applying the command:\n"
    "  opm index deprecatetruncate --bundles \"quay.io/my/bundle:1.3.0\" --from-index "
    "\"quay.io/my/index:v1\" --tag \"quay.io/my/index:v2\"\n"
    "  \n"
    "  Produces the following update graph in quay.io/my/index:v2\n"
    "  1.4.0 -- replaces -> 1.3.0 [deprecated]\n"
    "  \n"
    " Deprecating a bundle that removes the default channel is not allowed unless the head(s) of "
    "all channels are being deprecated (the package is subsequently removed from the index). "
    "This behavior can be enabled via the allow-package-removal flag. Changing the default "
    "channel prior to deprecation is possible by publishing a new bundle to the index.";

void add_index_deprecatetruncate(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<IndexFlags>();
  auto allow_removal = std::make_shared<bool>(false);
  auto* sub = add_command(parent, ctx,
                          {.use = "deprecatetruncate",
                           .short_text = "Deprecate and truncate operator bundles from an index.",
                           .long_text = std::string(k_deprecate_long) + k_long_suffix,
                           .args = Args::none(),
                           .hidden = true});
  add_image_flags(*sub, *flags, true, "previous index to add to",
                  "tool to interact with container images (save, build, etc.). One of: [docker, "
                  "podman]");
  auto* bundles_flag =
      sub->add_option("-b,--bundles", flags->list, "comma separated list of bundles to add");
  sub->add_flag("--permissive", flags->permissive, "allow registry load errors");
  sub->add_flag("--allow-package-removal", *allow_removal,
                "removes the entire package if the heads of all channels in the package are "
                "deprecated");
  sub->callback([&ctx, &chosen, sub, flags, bundles_flag, allow_removal] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags, bundles_flag, allow_removal]() -> Result<void> {
      OPM_TRY(check_required(ctx, {bundles_flag}));
      auto tools = split_tools(*flags);
      if (!tools) {
        return fail_like_cobra(ctx, *sub, tools.error());
      }
      return with_session(ctx, *sub, *tools, fail_like_cobra, [&](Session& s) -> Result<void> {
        auto bundles = split_values(flags->list);
        s.fields = {{"bundles", go_list(bundles)}};
        s.log("info", "deprecating bundles from the index");
        auto done = index::update_index_image(
            image_request(*flags), s.steps(), [&](const std::filesystem::path& db) {
              return index::deprecate_truncate(
                  {.database = db,
                   .bundles = bundles,
                   .permissive = flags->permissive,
                   .allow_package_removal = *allow_removal,
                   .tolerated =
                       [&s](const Error& e) {
                         s.log("warning", "permissive mode enabled", {{"error", e.message()}});
                       },
                   .not_tolerated =
                       [&s](const Error& e) {
                         s.log("error", "permissive mode disabled", {{"error", e.message()}});
                       },
                   .info =
                       [&ctx](const std::string& m, const std::vector<std::string>& current) {
                         ctx.err << util::logrus_line("info", m, ctx.err_is_tty,
                                                      {{"bundles", go_list(current)}});
                       }});
            });
        return done;
      });
    };
  });
}

} // namespace

// `opm index`: upstream v1.26.5's SQLite index image commands.
void add_index(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* group = add_command(parent, ctx,
                            {.use = "index",
                             .short_text = "generate operator index container images",
                             .long_text = "generate operator index container images from "
                                          "preexisting operator bundles" +
                                          k_long_suffix,
                             .args = Args::none(),
                             .runnable = false});
  group->parse_complete_callback([&ctx] { log_sqlite_deprecation(ctx); });
  add_index_add(*group, ctx, chosen);
  add_index_packages(*group, ctx, chosen,
                     {"rm", "delete an entire operator from an index", "-o,--operators",
                      "comma separated list of operators to delete",
                      "previous index to delete from", "operators", "building the index", true,
                      index::remove_packages});
  add_index_packages(*group, ctx, chosen,
                     {"prune", "prune an index of all but specified packages", "-p,--packages",
                      "comma separated list of packages to keep", "index to prune", "packages",
                      "pruning the index", false, index::prune_packages});
  add_index_prune_stranded(*group, ctx, chosen);
  add_index_export(*group, ctx, chosen);
  add_index_deprecatetruncate(*group, ctx, chosen);
}

} // namespace opm::cmd
