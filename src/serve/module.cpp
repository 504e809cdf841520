#include "serve/module.hpp"

namespace {

const opm::serve::ModuleEntry k_entry{
    .run = &opm::serve::run,
    .run_registry = &opm::serve::run_registry,
};

} // namespace

// The module's entry point (see serve/module.hpp).
extern "C" const opm::serve::ModuleEntry* opm_serve_module_entry() { return &k_entry; }
