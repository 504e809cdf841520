#include "util/shared_library.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

namespace opm::util {

namespace {

Error load_error(const std::string& soname, const char* fallback) {
  const char* why = ::dlerror();
  return Error(Errc::io,
               fmt::format("cannot load {}: {}", soname, why != nullptr ? why : fallback));
}

} // namespace

Result<SharedLibrary> SharedLibrary::open(const char* soname) {
  void* handle = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return std::unexpected(load_error(soname, "unknown error"));
  }
  return SharedLibrary(handle, soname);
}

void* SharedLibrary::symbol(const char* name) const { return ::dlsym(m_handle, name); }

Error SharedLibrary::missing_symbol() const {
  return load_error(m_soname, "a function is missing");
}

} // namespace opm::util
