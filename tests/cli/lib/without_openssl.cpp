// Preloaded (LD_PRELOAD) by tests/cli/openssl_missing.sh: opm's dlopen() of OpenSSL's libraries
// fails as on a system without them, with the loader's words for a missing file; every other
// library loads as usual.
#include <dlfcn.h>

#include <cstring>

namespace {

bool g_refused = false;

bool is_openssl(const char* file) {
  return file != nullptr && (std::strstr(file, "libcrypto.so") != nullptr ||
                             std::strstr(file, "libssl.so") != nullptr);
}

} // namespace

extern "C" void* dlopen(const char* file, int mode) {
  static const auto real =
      reinterpret_cast<void* (*)(const char*, int)>(dlsym(RTLD_NEXT, "dlopen"));
  if (is_openssl(file)) {
    g_refused = true;
    return nullptr;
  }
  return real(file, mode);
}

extern "C" char* dlerror() {
  static const auto real = reinterpret_cast<char* (*)()>(dlsym(RTLD_NEXT, "dlerror"));
  static char missing[] = "cannot open shared object file: No such file or directory";
  if (g_refused) {
    g_refused = false;
    return missing;
  }
  return real();
}
