#pragma once

#include "serve/module.hpp"
#include "serve/probe.hpp"
#include "util/error.hpp"

// Finds and loads the serve module (opm-serve.so): next to the running executable, then in
// ../lib/opm relative to it (where `cmake --install` puts it). The module stays loaded until
// the process exits.
namespace opm::cmd {

Result<const serve::ModuleEntry*> load_serve_module();

// The health probe of the same module (grpc_health_probe).
Result<const serve::ProbeEntry*> load_probe_module();

} // namespace opm::cmd
