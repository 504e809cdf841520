#pragma once

#include "cmd/context.hpp"

#include <span>

namespace opm::cmd {

using AddCommand = void (*)(CLI::App& parent, Context& ctx, Action& chosen);

struct CommandEntry {
  const char* name;
  AddCommand add;
};

// The whole command surface, in help order.
std::span<const CommandEntry> commands();

void add_init(CLI::App& parent, Context& ctx, Action& chosen);
void add_render(CLI::App& parent, Context& ctx, Action& chosen);
void add_validate(CLI::App& parent, Context& ctx, Action& chosen);
void add_generate(CLI::App& parent, Context& ctx, Action& chosen);
void add_alpha(CLI::App& parent, Context& ctx, Action& chosen);
void add_version(CLI::App& parent, Context& ctx, Action& chosen);
void add_completion(CLI::App& parent, Context& ctx, Action& chosen);

} // namespace opm::cmd
