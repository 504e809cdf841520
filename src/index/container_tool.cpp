#include "index/container_tool.hpp"

#include "util/process.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace opm::index {

namespace {

using Finished = util::ProcessOutcome;

// Runs the tool found on PATH with this process's environment and standard input.
Result<Finished> run(const std::vector<std::string>& argv) {
  auto exe = util::find_on_path(argv[0]);
  if (!exe) {
    return util::fail(Errc::io,
                      fmt::format("exec: \"{}\": executable file not found in $PATH", argv[0]));
  }
  auto done = util::run_process({.exe = *exe, .argv = argv});
  if (!done) {
    return util::fail(Errc::io, fmt::format("fork/exec {}: {}", argv[0], done.error().message()));
  }
  return done;
}

void note(const ToolLog& log, std::string_view level, const std::string& message) {
  if (log.write) {
    log.write(level, message);
  }
}

// Go's fmt of a []string: "[podman create REF ]".
std::string argv_text(const std::vector<std::string>& argv) {
  std::string text = "[";
  for (const auto& a : argv) {
    text += (text.size() > 1 ? " " : "") + a;
  }
  return text + "]";
}

// Runs one tool command as upstream's runner does for every verb but pull and build:
// "running <tool> <verb>" at info, the argv at debug.
Result<Finished> run_verb(const std::vector<std::string>& argv, const ToolLog& log) {
  note(log, "info", fmt::format("running {} {}", argv[0], argv[1]));
  note(log, "debug", argv_text(argv));
  return run(argv);
}

} // namespace

ContainerTool container_tool(const std::string& name, ContainerTool fallback) {
  if (name == "podman") {
    return ContainerTool::podman;
  }
  if (name == "docker") {
    return ContainerTool::docker;
  }
  if (name == "none") {
    return ContainerTool::none;
  }
  return fallback;
}

std::string tool_name(ContainerTool tool) {
  switch (tool) {
  case ContainerTool::podman:
    return "podman";
  case ContainerTool::docker:
    return "docker";
  case ContainerTool::none:
    break;
  }
  return "";
}

Result<void> build_image(ContainerTool tool, const std::filesystem::path& dockerfile,
                         const std::string& tag, const ToolLog& log) {
  if (tool == ContainerTool::none) {
    return util::fail(Errc::invalid,
                      "unable to perform build: \"build\" is not supported by tool \"\"");
  }
  std::vector<std::string> argv{tool_name(tool), "build"};
  if (tool == ContainerTool::podman) {
    argv.insert(argv.end(), {"--format", "docker"});
  }
  argv.insert(argv.end(), {"-f", dockerfile.string(), "-t", tag, "."});
  note(log, "info", fmt::format("running {} build", argv[0]));
  note(log, "info", argv_text(argv));
  auto done = OPM_TRY(run(argv));
  if (!done.succeeded()) {
    note(log, "error", done.out + done.err);
    return util::fail(Errc::io, fmt::format("error building image: {}. {}", done.out + done.err,
                                            done.exit_text()));
  }
  return {};
}

Result<void> pull_image(ContainerTool tool, const std::string& ref, bool plain_http,
                        const ToolLog& log) {
  std::vector<std::string> pull{tool_name(tool), "pull"};
  if (tool == ContainerTool::podman && plain_http) {
    pull.emplace_back("--tls-verify=false");
  }
  pull.push_back(ref);
  std::string shown = log.path.empty() ? pull[0] : log.path;
  for (std::size_t i = 1; i < pull.size(); ++i) {
    shown += " " + pull[i];
  }
  note(log, "info", "running " + shown);
  auto pulled = OPM_TRY(run(pull));
  if (!pulled.succeeded()) {
    note(log, "error", pulled.out + pulled.err);
    return util::fail(Errc::io, fmt::format("error pulling image: {}. {}", pulled.out + pulled.err,
                                            pulled.exit_text()));
  }
  return {};
}

Result<std::map<std::string, std::string>> pull_labels(ContainerTool tool, const std::string& ref,
                                                       bool plain_http, const ToolLog& log) {
  OPM_TRY(pull_image(tool, ref, plain_http, log));
  note(log, "info", "Getting label data from previous image");
  auto inspected = OPM_TRY(run_verb({tool_name(tool), "inspect", ref}, log));
  if (!inspected.succeeded()) {
    note(log, "error", inspected.out);
  }
  auto data = nlohmann::json::parse(inspected.out, nullptr, false);
  const char* key = tool == ContainerTool::podman ? "/0/Labels" : "/0/Config/Labels";
  if (!inspected.succeeded() || data.is_discarded() ||
      !data.contains(nlohmann::json::json_pointer(key))) {
    return util::fail(Errc::invalid, "Unable to parse label data from container");
  }
  std::map<std::string, std::string> labels;
  for (const auto& [name, value] : data.at(nlohmann::json::json_pointer(key)).items()) {
    if (value.is_string()) {
      labels[name] = value.get<std::string>();
    }
  }
  return labels;
}

Result<void> copy_image_files(ContainerTool tool, const std::string& ref,
                              const std::filesystem::path& dir, const ToolLog& log) {
  const auto name = tool_name(tool);
  auto created = OPM_TRY(run_verb({name, "create", ref, ""}, log));
  if (!created.succeeded()) {
    return util::fail(Errc::io, fmt::format("error creating container {}: {}: {}", created.out,
                                            created.exit_text(), created.err));
  }
  std::string id = created.out;
  while (!id.empty() && id.back() == '\n') {
    id.pop_back();
  }
  auto copied = OPM_TRY(run_verb({name, "cp", id + ":/.", dir.string()}, log));
  if (!copied.succeeded()) {
    note(log, "error", copied.out + copied.err);
  }
  auto removed = OPM_TRY(run_verb({name, "rm", id}, log));
  if (!copied.succeeded()) {
    return util::fail(Errc::io, fmt::format("error copying container directory {}: {}",
                                            copied.out + copied.err, copied.exit_text()));
  }
  if (!removed.succeeded()) {
    note(log, "error", removed.out + removed.err);
    return util::fail(Errc::io, fmt::format("error removing container {}: {}",
                                            removed.out + removed.err, removed.exit_text()));
  }
  return {};
}

} // namespace opm::index
