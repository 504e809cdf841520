#pragma once

#include "util/error.hpp"

#include <curl/curl.h>

namespace opm::registry {

// libcurl's entry points, loaded the first time a request is made (util/shared_library.hpp):
// linked in, it and the thirty libraries it pulls in (GnuTLS, Kerberos, LDAP among them) cost
// every command 3 ms at start, and most commands never reach a registry.
struct CurlLibrary {
  decltype(&::curl_global_init) global_init;
  decltype(&::curl_easy_init) easy_init;
  decltype(&::curl_easy_cleanup) easy_cleanup;
  decltype(&::curl_easy_reset) easy_reset;
  decltype(&::curl_easy_setopt) easy_setopt;
  decltype(&::curl_easy_getinfo) easy_getinfo;
  decltype(&::curl_easy_perform) easy_perform;
  decltype(&::curl_easy_strerror) easy_strerror;
  decltype(&::curl_slist_append) slist_append;
  decltype(&::curl_slist_free_all) slist_free_all;
};

// The shared object loaded, by its soname.
inline constexpr const char* k_curl_soname = "libcurl.so.4";

// The library, loaded and initialised once per process (never unloaded), or why it could not
// be: "cannot load libcurl.so.4: <the loader's words>".
Result<const CurlLibrary*> curl_library();

// The loaded library; only after curl_library() succeeded.
const CurlLibrary& loaded_curl();

} // namespace opm::registry
