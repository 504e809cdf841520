// What the `opm alpha bundle` subcommands share.
#pragma once

#include "cmd/commands.hpp"
#include "util/error.hpp"

namespace opm::cmd::alpha_bundle {

// Upstream's commands return their errors to cobra, which prints "Error: <message>" and the
// usage; the message keeps its location in front.
Result<void> as_cobra_error(Result<void> result);

// logrus info lines on stderr.
std::function<void(const std::string&)> info_log(Context& ctx);

void add_generate(CLI::App& parent, Context& ctx, Action& chosen);
void add_build(CLI::App& parent, Context& ctx, Action& chosen);
void add_unpack(CLI::App& parent, Context& ctx, Action& chosen);
void add_validate(CLI::App& parent, Context& ctx, Action& chosen);
void add_extract(CLI::App& parent, Context& ctx, Action& chosen);

} // namespace opm::cmd::alpha_bundle
