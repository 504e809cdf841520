// What the `opm index` subcommands share: their flags, tool choice, the session that pulls
// images and logs, and how they report errors.
#pragma once

#include "cmd/context.hpp"
#include "index/add.hpp"
#include "index/container_tool.hpp"
#include "index/index_image.hpp"
#include "index/remove.hpp"
#include "registry/puller.hpp"
#include "sqlite/deprecation.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace opm::cmd::index_cmd {

inline const std::string k_long_suffix =
    std::string("\n\n") + std::string(sqlite::k_sqlite_deprecation_notice);

// The flags every image-building index command shares.
struct IndexFlags {
  const CLI::Option* container_tool_flag = nullptr;
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
  bool debug = false; // --debug: upstream's debug lines and the registry client's log
};

// A build tool of `none` means the image is built and pushed without a container engine, to
// --tag (which it then needs); so it is when no tool is named and neither podman nor docker
// is on PATH.

// add, rm and deprecatetruncate: --pull-tool and --build-tool, or --container-tool for both.
Result<Tools> split_tools(const Context& ctx, const IndexFlags& flags);

// prune and prune-stranded: --container-tool for both (default podman).
Result<Tools> single_tool(const Context& ctx, const IndexFlags& flags);

// How the command reaches images and logs, for one run.
struct Session {
  Context& ctx;
  Tools tools;
  bool use_http = false;
  std::unique_ptr<registry::Puller> puller;
  std::vector<util::LogField> fields;
  std::size_t jobs = 1; // bundles pulled at once by the built-in client

  void log(std::string_view level, const std::string& message,
           std::vector<util::LogField> extra = {}) const;
  // The container tool's command lines, logged with the session's fields.
  [[nodiscard]] index::ToolLog tool_log(index::ContainerTool tool) const;
  index::ImageSteps steps();
  // Bundle images into an empty directory, with the pull tool.
  index::Unpack bundle_unpack();
};

Result<std::unique_ptr<Session>> open_session(Context& ctx, Tools tools);

index::ImageRequest image_request(const IndexFlags& flags);

// --mode of index add and registry add, any case: "Invalid channel update mode X specified".
Result<index::Mode> parse_mode(const std::string& text);

// --container-tool's usage where a container engine does the work, and where "none" (opm
// itself) may too.
inline constexpr const char* k_engine_tool_usage =
    "tool to interact with container images (save, build, etc.). One of: [docker, podman]";
inline constexpr const char* k_any_tool_usage =
    "tool to interact with container images (save, build, etc.). One of: [none, docker, podman]";

// The flags of add, rm and deprecatetruncate, in upstream's order of declaration.
void add_image_flags(CLI::App& sub, IndexFlags& flags, bool with_pull_build,
                     const std::string& from_index_usage, const std::string& tool_usage,
                     const std::string& tool_default = {});

// Index add's and deprecatetruncate's flags: the image flags (of a previous index to add to,
// an engine tool), -b,--bundles and --permissive. Returns --bundles, which the command
// checks itself: CLI11 would refuse the empty list upstream accepts.
const CLI::Option* add_bundle_list_flags(CLI::App& sub, IndexFlags& flags);

// --mode of index add and registry add.
void add_mode_flag(CLI::App& sub, std::string& mode);

// The hidden --overwrite-latest and --enable-alpha of index add and registry add.
void add_latest_flags(CLI::App& sub, bool& overwrite_latest, bool& enable_alpha);

// Prints the error as cobra does (message and usage) and keeps its exit code.
Result<void> fail_like_cobra(Context& ctx, const CLI::App& sub, const Error& e);

// rm and prune report a package that cannot be removed as logrus fatal, without usage.
Result<void> fail_removal(Context& ctx, const CLI::App& sub, const Error& e);

// Upstream's log of a container tool's runs on stderr, with `fields`; its debug lines only
// with `debug`.
index::ToolLog tool_log(Context& ctx, index::ContainerTool tool, std::vector<util::LogField> fields,
                        bool debug);

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
                        const PackagesCommand& spec);

// The subcommands, one file each.
void add_index_add(CLI::App& parent, Context& ctx, Action& chosen);
void add_index_rm(CLI::App& parent, Context& ctx, Action& chosen);
void add_index_prune(CLI::App& parent, Context& ctx, Action& chosen);
void add_index_prune_stranded(CLI::App& parent, Context& ctx, Action& chosen);
void add_index_export(CLI::App& parent, Context& ctx, Action& chosen);
void add_index_deprecatetruncate(CLI::App& parent, Context& ctx, Action& chosen);

} // namespace opm::cmd::index_cmd
