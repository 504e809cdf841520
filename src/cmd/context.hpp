#pragma once

#include "cli/command.hpp"
#include "cli/context.hpp"

namespace opm::cmd {

// The command layer speaks the command machinery's vocabulary.
using cli::Action;
using cli::add_command;
using cli::Args;
using cli::CommandMeta;
using cli::CommandSpec;
using cli::Environment;
using cli::FatalStyle;

// opm's persistent root flags.
struct GlobalFlags {
  bool use_http = false;
  bool skip_tls_verify = false;
  bool skip_tls = false; // deprecated alias of --use-http
  bool debug = false;    // hidden; upstream raises its log level
};

// What every opm subcommand sees: the command machinery's context plus the root flags.
struct Context : cli::Context {
  GlobalFlags global{};
};

} // namespace opm::cmd
