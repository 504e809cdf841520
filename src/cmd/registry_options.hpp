#pragma once

#include "cmd/context.hpp"
#include "registry/options.hpp"

namespace opm::cmd {
// Registry client options from the global flags and the environment: --use-http (or the
// deprecated --skip-tls), --skip-tls-verify, the default blob cache, unpack limits.
registry::Options registry_options(const Context& ctx);
} // namespace opm::cmd
