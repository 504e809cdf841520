#include "cmd/index_common.hpp"

#include "cli/usage.hpp"
#include "cmd/commands.hpp"
#include "cmd/image_build.hpp"
#include "cmd/registry_options.hpp"
#include "cmd/removal_log.hpp"
#include "cmd/required_flags.hpp"
#include "cmd/string_lists.hpp"
#include "index/missing_image.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <unistd.h>

namespace opm::cmd::index_cmd {

namespace {

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

} // namespace

namespace {

// Where $PATH has `program`, as exec.LookPath finds it.
std::optional<std::filesystem::path> find_on_path(const Context& ctx, std::string_view program) {
  for (const std::string& dir : util::split(ctx.env.get("PATH").value_or(""), ':')) {
    auto file = std::filesystem::path(dir.empty() ? "." : dir) / program;
    std::error_code ec;
    if (std::filesystem::is_regular_file(file, ec) && ::access(file.c_str(), X_OK) == 0) {
      return file;
    }
  }
  return std::nullopt;
}

bool on_path(const Context& ctx, std::string_view program) {
  return find_on_path(ctx, program).has_value();
}

bool no_container_engine(const Context& ctx) {
  return !on_path(ctx, "podman") && !on_path(ctx, "docker");
}

Result<Tools> tag_for_built_in_build(const IndexFlags& flags, Tools tools) {
  if (tools.build == index::ContainerTool::none && !flags.generate && flags.tag.empty()) {
    return util::fail(Errc::invalid,
                      "building the index image without a container tool needs --tag: a "
                      "registry reference, oci:DIR[:TAG] or docker-archive:FILE");
  }
  return tools;
}

} // namespace

Result<Tools> split_tools(const Context& ctx, const IndexFlags& flags) {
  std::string pull = flags.pull_tool;
  std::string build = flags.build_tool;
  if (!flags.container_tool.empty()) {
    if (!pull.empty() || !build.empty()) {
      return util::fail(Errc::invalid,
                        "container-tool cannot be set alongside pull-tool or build-tool");
    }
    pull = build = flags.container_tool;
  }
  if (build.empty() && no_container_engine(ctx)) {
    build = "none";
  }
  return tag_for_built_in_build(
      flags,
      Tools{index::container_tool(pull.empty() ? "none" : pull, index::ContainerTool::none),
            index::container_tool(build.empty() ? "podman" : build, index::ContainerTool::podman),
            flags.debug});
}

Result<Tools> single_tool(const Context& ctx, const IndexFlags& flags) {
  std::string name = flags.container_tool;
  if (!ctx.meta.changed(flags.container_tool_flag) && no_container_engine(ctx)) {
    name = "none";
  }
  auto tool = index::container_tool(name, index::ContainerTool::podman);
  return tag_for_built_in_build(flags, Tools{tool, tool, flags.debug});
}

void Session::log(std::string_view level, const std::string& message,
                  std::vector<util::LogField> extra) const {
  auto all = fields;
  all.insert(all.end(), extra.begin(), extra.end());
  ctx.err << util::logrus_line(level, message, ctx.err_is_tty, all);
}

index::ToolLog tool_log(Context& ctx, index::ContainerTool tool, std::vector<util::LogField> fields,
                        bool debug) {
  std::string name = index::tool_name(tool);
  auto found = find_on_path(ctx, name);
  return {.path = found ? found->string() : name,
          .write = [&ctx, fields = std::move(fields), debug](std::string_view level,
                                                             const std::string& message) {
            if (level != "debug" || debug) {
              ctx.err << util::logrus_line(level, message, ctx.err_is_tty, fields);
            }
          }};
}

index::ToolLog Session::tool_log(index::ContainerTool tool) const {
  return index_cmd::tool_log(ctx, tool, fields, tools.debug);
}

index::ImageSteps Session::steps() {
  return {.labels = [this](const std::string& ref) -> Result<std::map<std::string, std::string>> {
            if (tools.pull == index::ContainerTool::none) {
              auto labels = puller->labels(ref);
              if (!labels) {
                return std::unexpected(index::index_pull_error(ref, std::move(labels).error()));
              }
              return labels;
            }
            // Upstream pulls, then pulls again to read the labels.
            auto log = tool_log(tools.pull);
            OPM_TRY(index::pull_image(tools.pull, ref, use_http, log));
            return index::pull_labels(tools.pull, ref, use_http, log);
          },
          .unpack = [this](const std::string& ref, const std::filesystem::path& dir,
                           const std::string& database) -> Result<void> {
            if (tools.pull == index::ContainerTool::none) {
              return puller->unpack(ref, dir, {database});
            }
            return index::copy_image_files(tools.pull, ref, dir, tool_log(tools.pull));
          },
          .build = [this](const index::BuildInput& input) -> Result<void> {
            if (tools.debug) {
              log("debug", "building container image: " + input.tag);
            }
            if (tools.build == index::ContainerTool::none) {
              auto digest = OPM_TRY(build_index_without_tool(ctx, *puller, input));
              log("info", "built the index image", {{"tag", input.tag}, {"digest", digest}});
              return {};
            }
            return index::build_image(tools.build, input.dockerfile, input.tag,
                                      tool_log(tools.build));
          },
          .info = [this](const std::string& message) { log("info", message); }};
}

index::Unpack Session::bundle_unpack() {
  return [this](const std::string& ref, const std::filesystem::path& dir) -> Result<void> {
    if (tools.pull == index::ContainerTool::none) {
      auto unpacked = puller->unpack(ref, dir, {"manifests", "metadata"});
      if (!unpacked) {
        return std::unexpected(index::bundle_pull_error(ref, std::move(unpacked).error()));
      }
      return {};
    }
    auto log = tool_log(tools.pull);
    OPM_TRY(index::pull_image(tools.pull, ref, use_http, log));
    return index::copy_image_files(tools.pull, ref, dir, log);
  };
}

Result<std::unique_ptr<Session>> open_session(Context& ctx, Tools tools) {
  if (auto ok = registry::check_flag_combination(ctx.global.use_http, ctx.global.skip_tls_verify,
                                                 ctx.global.skip_tls);
      !ok) {
    return std::unexpected(ok.error());
  }
  // A subcommand's --debug raises the log level as the root's does.
  ctx.global.debug = ctx.global.debug || tools.debug;
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

void add_image_flags(CLI::App& sub, IndexFlags& flags, bool with_pull_build,
                     const std::string& from_index_usage, const std::string& tool_usage,
                     const std::string& tool_default) {
  sub.add_flag("--debug", flags.debug, "enable debug logging")->group("");
  sub.add_flag("--generate", flags.generate, std::string(k_generate_usage));
  sub.add_option("-d,--out-dockerfile", flags.out_dockerfile, std::string(k_out_dockerfile_usage));
  sub.add_option("-f,--from-index", flags.from_index, from_index_usage);
  sub.add_option("-i,--binary-image", flags.binary_image, std::string(k_binary_image_usage));
  flags.container_tool = tool_default;
  flags.container_tool_flag =
      sub.add_option("-c,--container-tool", flags.container_tool, tool_usage);
  if (with_pull_build) {
    sub.add_option("-u,--build-tool", flags.build_tool, std::string(k_build_tool_usage));
    sub.add_option("-p,--pull-tool", flags.pull_tool, std::string(k_pull_tool_usage));
  }
  sub.add_option("-t,--tag", flags.tag, std::string(k_tag_usage));
}

const CLI::Option* add_bundle_list_flags(CLI::App& sub, IndexFlags& flags) {
  add_image_flags(sub, flags, true, "previous index to add to", k_engine_tool_usage);
  const CLI::Option* bundles =
      sub.add_option("-b,--bundles", flags.list, "comma separated list of bundles to add");
  sub.add_flag("--permissive", flags.permissive, "allow registry load errors");
  return bundles;
}

void add_mode_flag(CLI::App& sub, std::string& mode) {
  sub.add_option("--mode", mode,
                 "graph update mode that defines how channel graphs are updated. One of: "
                 "[replaces, semver, semver-skippatch]");
}

void add_latest_flags(CLI::App& sub, bool& overwrite_latest, bool& enable_alpha) {
  sub.add_flag("--overwrite-latest", overwrite_latest,
               "overwrite the latest bundles (channel heads) with those of the same csv name "
               "given by --bundles")
      ->group("");
  sub.add_flag("--enable-alpha", enable_alpha, "enable unsupported alpha features of the OPM CLI")
      ->group("");
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

Result<void> fail_like_cobra(Context& ctx, const CLI::App& sub, const Error& e) {
  ctx.err << "Error: " << e.message() << "\n" << usage_text(sub, ctx.meta) << "\n";
  return std::unexpected(Error::already_reported(e.code()));
}

// rm and prune report a package that cannot be removed as logrus fatal, without usage.
Result<void> fail_removal(Context& ctx, const CLI::App& sub, const Error& e) {
  if (e.code() == Errc::package_removal) {
    ctx.err << util::logrus_line("fatal", "permissive mode disabled", ctx.err_is_tty,
                                 {{"error", e.message()}});
    return std::unexpected(Error::already_reported(Errc::invalid));
  }
  return fail_like_cobra(ctx, sub, e);
}

void add_index_packages(CLI::App& parent, Context& ctx, Action& chosen,
                        const PackagesCommand& spec) {
  auto flags = std::make_shared<IndexFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = spec.use,
                           .short_text = spec.short_text,
                           .long_text = spec.short_text + k_long_suffix,
                           .args = Args::none()});
  add_image_flags(*sub, *flags, spec.split_tools, spec.from_index_usage,
                  spec.split_tools ? k_any_tool_usage : k_engine_tool_usage,
                  spec.split_tools ? "" : "podman");
  const CLI::Option* from_flag = sub->get_option("--from-index");
  const CLI::Option* list_flag = sub->add_option(spec.list_flag, flags->list, spec.list_usage);
  sub->add_flag("--permissive", flags->permissive, "allow registry load errors");
  sub->callback([&ctx, &chosen, sub, flags, spec, from_flag, list_flag] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags, spec, from_flag, list_flag]() -> Result<void> {
      OPM_TRY(check_required(ctx, {from_flag, list_flag}));
      auto tools = spec.split_tools ? split_tools(ctx, *flags) : single_tool(ctx, *flags);
      if (!tools) {
        return fail_like_cobra(ctx, *sub, tools.error());
      }
      return with_session(ctx, *sub, *tools, fail_removal, [&](Session& s) -> Result<void> {
        auto list = split_values(flags->list);
        s.fields = {{spec.field, go_list(list)}};
        s.log("info", spec.start);
        auto done = index::update_index_image(
            image_request(*flags), s.steps(), [&](const std::filesystem::path& db) {
              index::RemoveRequest request{
                  .database = db,
                  .packages = list,
                  .permissive = flags->permissive,
                  .tolerated = [&s](const Error& e) {
                    s.log("warning", "permissive mode enabled", {{"error", e.message()}});
                  }};
              // upstream logs these from a logger of its own, without the command's fields
              add_removal_logs(ctx, request);
              return spec.run(request);
            });
        return done;
      });
    };
  });
}
} // namespace opm::cmd::index_cmd
