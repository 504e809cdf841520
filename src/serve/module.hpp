#pragma once

#include "serve/serve.hpp"

#include <ostream>
#include <string_view>

// Everything that touches gRPC and protobuf is the serve module, linked only into the
// executable opm-serve, to which `opm` hands the serve commands over
// (src/cmd/serve_program.hpp), so that no other command pays for loading those libraries.
// The commands reach the module through one C function, opm_serve_module_entry(), returning
// a ModuleEntry.
namespace opm::serve {

inline constexpr std::string_view k_program_file = "opm-serve";
// Relative to the directory of `opm`, where `cmake --install` puts it.
inline constexpr std::string_view k_installed_program = "../lib/opm/opm-serve";

struct ModuleEntry {
  // serve::run
  Result<void> (*run)(const Options& options, std::ostream& err) = nullptr;
  // serve::run_registry, for `opm registry serve`.
  Result<void> (*run_registry)(const RegistryOptions& options, std::ostream& err) = nullptr;
};

} // namespace opm::serve
