#include "cmd/serve_module.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

#include <filesystem>
#include <string>
#include <vector>

namespace opm::cmd {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> module_candidates() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return {};
  }
  fs::path dir = exe.parent_path();
  return {dir / serve::k_module_file, dir / ".." / "lib" / "opm" / serve::k_module_file};
}

std::string dl_error() {
  const char* text = ::dlerror();
  return text != nullptr ? text : "unknown error";
}

// The module at `path`, loaded once (dlopen() of a loaded module returns it again).
Result<void*> module_symbol(const fs::path& path, const char* name) {
  // Never closed: gRPC keeps threads and static state alive until exit. Bound lazily: binding
  // all of gRPC's symbols up front cost every start 5 ms, and the module is linked with
  // --no-undefined against the libraries it loads.
  void* handle = ::dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (handle == nullptr) {
    return util::fail(Errc::io, fmt::format("cannot load {}: {}", path.string(), dl_error()));
  }
  void* symbol = ::dlsym(handle, name);
  if (symbol == nullptr) {
    return util::fail(Errc::invalid,
                      fmt::format("{} is not an opm serve module: {}", path.string(), dl_error()));
  }
  return symbol;
}

Result<void> check_abi(const fs::path& path, bool present, std::uint32_t abi,
                       std::uint32_t expected) {
  if (!present || abi != expected) {
    return util::fail(Errc::invalid,
                      fmt::format("{} does not match this opm (module interface {}, expected {})",
                                  path.string(), present ? abi : 0, expected));
  }
  return {};
}

Result<const serve::ModuleEntry*> open_module(const fs::path& path) {
  void* symbol = OPM_TRY(module_symbol(path, serve::k_module_entry_symbol));
  auto entry_function = reinterpret_cast<serve::ModuleEntryFunction>(symbol);
  const serve::ModuleEntry* entry = entry_function();
  OPM_TRY(
      check_abi(path, entry != nullptr, entry == nullptr ? 0 : entry->abi, serve::k_module_abi));
  return entry;
}

Result<const serve::ProbeEntry*> open_probe(const fs::path& path) {
  void* symbol = OPM_TRY(module_symbol(path, serve::k_probe_entry_symbol));
  auto entry_function = reinterpret_cast<serve::ProbeEntryFunction>(symbol);
  const serve::ProbeEntry* entry = entry_function();
  OPM_TRY(check_abi(path, entry != nullptr, entry == nullptr ? 0 : entry->abi, serve::k_probe_abi));
  return entry;
}

// The first candidate that exists, or the error naming where the module was looked for.
Result<fs::path> find_module() {
  auto candidates = module_candidates();
  for (const auto& path : candidates) {
    std::error_code ec;
    if (fs::exists(path, ec)) {
      return path;
    }
  }
  std::string where = candidates.empty() ? std::string("next to the opm executable")
                                         : fmt::format("{} or {}", candidates[0].string(),
                                                       candidates[1].lexically_normal().string());
  return util::fail(Errc::not_found, fmt::format("serve module not found: install {} at {}",
                                                 serve::k_module_file, where));
}

} // namespace

Result<const serve::ModuleEntry*> load_serve_module() {
  return open_module(OPM_TRY(find_module()));
}

Result<const serve::ProbeEntry*> load_probe_module() { return open_probe(OPM_TRY(find_module())); }

} // namespace opm::cmd
