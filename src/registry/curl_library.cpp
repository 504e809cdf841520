#include "registry/curl_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <mutex>

namespace opm::registry {

namespace {

const CurlLibrary* g_loaded = nullptr;

template <typename Function> bool resolve(void* handle, const char* name, Function& out) {
  out = reinterpret_cast<Function>(::dlsym(handle, name));
  return out != nullptr;
}

Result<const CurlLibrary*> load() {
  void* handle = ::dlopen(k_curl_soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return util::fail(Errc::io, fmt::format("cannot load {}: {}", k_curl_soname,
                                            why != nullptr ? why : "unknown error"));
  }
  static CurlLibrary lib{};
  bool complete = resolve(handle, "curl_global_init", lib.global_init) &&
                  resolve(handle, "curl_easy_init", lib.easy_init) &&
                  resolve(handle, "curl_easy_cleanup", lib.easy_cleanup) &&
                  resolve(handle, "curl_easy_reset", lib.easy_reset) &&
                  resolve(handle, "curl_easy_setopt", lib.easy_setopt) &&
                  resolve(handle, "curl_easy_getinfo", lib.easy_getinfo) &&
                  resolve(handle, "curl_easy_perform", lib.easy_perform) &&
                  resolve(handle, "curl_easy_strerror", lib.easy_strerror) &&
                  resolve(handle, "curl_slist_append", lib.slist_append) &&
                  resolve(handle, "curl_slist_free_all", lib.slist_free_all);
  if (!complete) {
    const char* why = ::dlerror();
    return util::fail(Errc::io, fmt::format("cannot load {}: {}", k_curl_soname,
                                            why != nullptr ? why : "a function is missing"));
  }
  // Before any thread makes a handle; libcurl's global state lives until exit.
  lib.global_init(CURL_GLOBAL_DEFAULT);
  return &lib;
}

} // namespace

Result<const CurlLibrary*> curl_library() {
  static std::once_flag once;
  static Result<const CurlLibrary*> loaded = util::fail(Errc::io, "libcurl not loaded");
  std::call_once(once, [] {
    loaded = load();
    if (loaded) {
      g_loaded = *loaded;
    }
  });
  return loaded;
}

const CurlLibrary& loaded_curl() { return *g_loaded; }

} // namespace opm::registry
