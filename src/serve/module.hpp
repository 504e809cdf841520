#pragma once

#include "serve/serve.hpp"

#include <cstdint>
#include <ostream>

// Everything that touches gRPC and protobuf is built into a shared module, opm-serve.so,
// that `opm` dlopen()s only for the serve commands, so that no other command pays for
// loading those libraries. The module exports one C symbol, k_module_entry_symbol, a
// function returning a ModuleEntry. Both sides are built from the same tree; `abi` guards
// against a module left over from another build.
namespace opm::serve {

// Raise whenever ModuleEntry, Options or anything passed across the boundary changes.
inline constexpr std::uint32_t k_module_abi = 2;
inline constexpr const char* k_module_file = "opm-serve.so";
inline constexpr const char* k_module_entry_symbol = "opm_serve_module_entry";

struct ModuleEntry {
  std::uint32_t abi = k_module_abi;
  // serve::run
  Result<void> (*run)(const Options& options, std::ostream& err) = nullptr;
  // serve::run_registry, for `opm registry serve`.
  Result<void> (*run_registry)(const RegistryOptions& options, std::ostream& err) = nullptr;
};

using ModuleEntryFunction = const ModuleEntry* (*)();

} // namespace opm::serve
