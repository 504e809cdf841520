#pragma once

#include "util/error.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

// podman and docker, run as upstream v1.26.5 runs them for the `opm index` commands
// (pkg/containertools and pkg/image/execregistry).
namespace opm::index {

enum class ContainerTool { none, podman, docker };

// "podman" and "docker" name themselves; anything else is `fallback`, as upstream's
// NewContainerTool decides.
ContainerTool container_tool(const std::string& name, ContainerTool fallback);
std::string tool_name(ContainerTool tool); // "" for none

// `<tool> build [--format docker] -f <dockerfile> -t <tag> .` in the current directory.
// Failures: `error building image: <output>. exit status <n>`; with no tool,
// `unable to perform build: "build" is not supported by tool ""`.
Result<void> build_image(ContainerTool tool, const std::filesystem::path& dockerfile,
                         const std::string& tag);

// `<tool> pull <ref>`; podman gets --tls-verify=false when `plain_http`.
// Failure: `error pulling image: <output>. exit status <n>`.
Result<void> pull_image(ContainerTool tool, const std::string& ref, bool plain_http);

// Pulls `ref` with the tool, then reads its labels with `inspect`.
Result<std::map<std::string, std::string>> pull_labels(ContainerTool tool, const std::string& ref,
                                                       bool plain_http);

// Copies the image's file system into `dir`: create, cp <id>:/. <dir>, rm.
Result<void> copy_image_files(ContainerTool tool, const std::string& ref,
                              const std::filesystem::path& dir);

} // namespace opm::index
