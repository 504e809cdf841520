#pragma once

#include "serve/module.hpp"
#include "serve/probe.hpp"
#include "util/error.hpp"

// Everything that touches gRPC and protobuf runs in a second executable, opm-serve: the same
// commands as `opm`, with the serve module linked in, from static archives where Debian has
// them. `opm` hands a serve command's whole command line over to it (exec, same process)
// before it has done or said anything, so that no other command pays for loading gRPC.
// opm-serve is looked for next to the running executable, then in ../lib/opm relative to it
// (where `cmake --install` puts it).
namespace opm::cmd {

// True in opm-serve, where the serve module is part of the executable.
bool serve_linked();

// In `opm`: replaces this process with opm-serve, given `argv` as they are. Returns only when
// that cannot be done (no opm-serve, or it would not run); the command then goes on, and
// fails where it asks for serve_module() or probe_module(), saying why.
void hand_over_to_serve_program(char** argv);

// Whether the command line is one handed over before the command tree is built: `opm serve`
// (what every catalog pod runs) or the health probe (argv[0] "grpc_health_probe").
bool handed_over_at_start(int argc, char** argv);

// hand_over_to_serve_program() for a command line handed_over_at_start(), made before the C++
// runtime or anything of the executable's own has started (a .preinit_array entry): it
// touches nothing but system calls and its arguments.
void hand_over_before_start(int argc, char** argv, char** envp);

// In opm-serve: names the process after the name it was run under (argv[0]), so that a
// command handed over from `opm` is still "opm" to ps, top and pkill. Nothing in `opm`.
void keep_invoked_name(const char* argv0);

// The serve module's entry points: linked in opm-serve, an error naming what is missing in
// `opm`.
Result<const serve::ModuleEntry*> serve_module();
Result<const serve::ProbeEntry*> probe_module();

} // namespace opm::cmd
