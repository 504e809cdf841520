#include "serve/module.hpp"

#include <string_view>

namespace {

const opm::serve::ModuleEntry k_entry{
    .abi = opm::serve::k_module_abi,
    .run = &opm::serve::run,
    .run_registry = &opm::serve::run_registry,
};

} // namespace

// The module's only exported entry point (see serve/module.hpp).
extern "C" __attribute__((visibility("default"))) const opm::serve::ModuleEntry*
opm_serve_module_entry() {
  return &k_entry;
}

static_assert(std::string_view(opm::serve::k_module_entry_symbol) == "opm_serve_module_entry");
