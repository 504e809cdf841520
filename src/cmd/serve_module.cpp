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

Result<const serve::ModuleEntry*> open_module(const fs::path& path) {
  // Never closed: gRPC keeps threads and static state alive until exit.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return util::fail(Errc::io, fmt::format("cannot load {}: {}", path.string(), dl_error()));
  }
  void* symbol = ::dlsym(handle, serve::k_module_entry_symbol);
  if (symbol == nullptr) {
    return util::fail(Errc::invalid,
                      fmt::format("{} is not an opm serve module: {}", path.string(), dl_error()));
  }
  auto entry_function = reinterpret_cast<serve::ModuleEntryFunction>(symbol);
  const serve::ModuleEntry* entry = entry_function();
  if (entry == nullptr || entry->abi != serve::k_module_abi) {
    return util::fail(Errc::invalid,
                      fmt::format("{} does not match this opm (module interface {}, expected {})",
                                  path.string(), entry == nullptr ? 0 : entry->abi,
                                  serve::k_module_abi));
  }
  return entry;
}

} // namespace

Result<const serve::ModuleEntry*> load_serve_module() {
  auto candidates = module_candidates();
  for (const auto& path : candidates) {
    std::error_code ec;
    if (fs::exists(path, ec)) {
      return open_module(path);
    }
  }
  std::string where = candidates.empty() ? std::string("next to the opm executable")
                                         : fmt::format("{} or {}", candidates[0].string(),
                                                       candidates[1].lexically_normal().string());
  return util::fail(Errc::not_found, fmt::format("serve module not found: install {} at {}",
                                                 serve::k_module_file, where));
}

} // namespace opm::cmd
