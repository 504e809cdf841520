#include "cmd/commands.hpp"

namespace opm::cmd {

// Hidden `__pull`: drives the registry client for its test suite (pull_debug.cpp).
void add_pull_debug(CLI::App& parent, Context& ctx, Action& chosen);

namespace {
constexpr CommandEntry k_commands[] = {
    {"alpha", add_alpha},     {"completion", add_completion}, {"generate", add_generate},
    {"init", add_init},       {"render", add_render},         {"validate", add_validate},
    {"version", add_version}, {"__pull", add_pull_debug},
};
} // namespace

std::span<const CommandEntry> commands() { return k_commands; }

} // namespace opm::cmd
