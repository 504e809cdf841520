#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

// podman and docker, run as upstream v1.26.5 runs them for the `opm index` commands
// (pkg/containertools and pkg/image/execregistry).
namespace opm::index {

enum class ContainerTool { none, podman, docker };

// "podman" and "docker" name themselves; anything else is `fallback`, as upstream's
// NewContainerTool decides.
ContainerTool container_tool(const std::string& name, ContainerTool fallback);
std::string tool_name(ContainerTool tool); // "" for none

// Where a tool's runs are reported, with upstream's lines: info "running podman create",
// debug "[podman create REF ]" (the argv), error with the output of a failed run.
struct ToolLog {
  // exec.LookPath's answer for the tool, which upstream's pull line names
  // ("running /usr/bin/podman pull REF"); the bare name when it is not on PATH.
  std::string path;
  std::function<void(std::string_view level, const std::string& message)> write;
};

// `<tool> build [--format docker] -f <dockerfile> -t <tag> .` in the current directory.
// Failures: `error building image: <output>. exit status <n>`; with no tool,
// `unable to perform build: "build" is not supported by tool ""`.
Result<void> build_image(ContainerTool tool, const std::filesystem::path& dockerfile,
                         const std::string& tag, const ToolLog& log);

// `<tool> pull <ref>`; podman gets --tls-verify=false when `plain_http`.
// Failure: `error pulling image: <output>. exit status <n>`.
Result<void> pull_image(ContainerTool tool, const std::string& ref, bool plain_http,
                        const ToolLog& log);

// Pulls `ref` with the tool, then reads its labels with `inspect`.
Result<std::map<std::string, std::string>> pull_labels(ContainerTool tool, const std::string& ref,
                                                       bool plain_http, const ToolLog& log);

// Copies the image's file system into `dir`: create, cp <id>:/. <dir>, rm.
Result<void> copy_image_files(ContainerTool tool, const std::string& ref,
                              const std::filesystem::path& dir, const ToolLog& log);

} // namespace opm::index
