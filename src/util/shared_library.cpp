#include "util/shared_library.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

namespace opm::util {

namespace {

Error load_error(const std::string& soname, std::string_view why) {
  return Error(Errc::io, fmt::format("cannot load {}: {}", soname, why));
}

} // namespace

Result<SharedLibrary> SharedLibrary::open(const char* soname) {
  void* handle = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return std::unexpected(load_error(soname, why != nullptr ? why : "unknown error"));
  }
  return SharedLibrary(handle, soname);
}

void* SharedLibrary::symbol(const char* name) const {
  ::dlerror(); // clears an earlier failure
  void* found = ::dlsym(m_handle, name);
  if (found == nullptr) {
    const char* why = ::dlerror();
    m_missing = why != nullptr ? why : fmt::format("undefined symbol: {}", name);
  }
  return found;
}

Error SharedLibrary::missing_symbol() const { return load_error(m_soname, m_missing); }

} // namespace opm::util
