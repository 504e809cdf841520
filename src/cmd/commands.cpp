#include "cmd/commands.hpp"

namespace opm::cmd {

namespace {
constexpr CommandEntry k_commands[] = {
    {"alpha", add_alpha},     {"completion", add_completion}, {"generate", add_generate},
    {"init", add_init},       {"render", add_render},         {"validate", add_validate},
    {"version", add_version},
};
} // namespace

std::span<const CommandEntry> commands() { return k_commands; }

} // namespace opm::cmd
