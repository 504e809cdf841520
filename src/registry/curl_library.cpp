#include "registry/curl_library.hpp"

#include "util/shared_library.hpp"

namespace opm::registry {

namespace {

Result<const CurlLibrary*> load_curl() {
  auto library = OPM_TRY(util::SharedLibrary::open(k_curl_soname));
  static CurlLibrary lib{};
  bool complete = library.resolve("curl_global_init", lib.global_init) &&
                  library.resolve("curl_easy_init", lib.easy_init) &&
                  library.resolve("curl_easy_cleanup", lib.easy_cleanup) &&
                  library.resolve("curl_easy_reset", lib.easy_reset) &&
                  library.resolve("curl_easy_setopt", lib.easy_setopt) &&
                  library.resolve("curl_easy_getinfo", lib.easy_getinfo) &&
                  library.resolve("curl_easy_perform", lib.easy_perform) &&
                  library.resolve("curl_easy_strerror", lib.easy_strerror) &&
                  library.resolve("curl_slist_append", lib.slist_append) &&
                  library.resolve("curl_slist_free_all", lib.slist_free_all);
  if (!complete) {
    return std::unexpected(library.missing_symbol());
  }
  // Before any thread makes a handle; libcurl's global state lives until exit.
  lib.global_init(CURL_GLOBAL_DEFAULT);
  return &lib;
}

util::LoadedOnce<CurlLibrary> g_curl(load_curl);

} // namespace

Result<const CurlLibrary*> curl_library() { return g_curl.get(); }

const CurlLibrary& loaded_curl() { return g_curl.loaded(); }

} // namespace opm::registry
