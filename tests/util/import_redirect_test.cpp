#include "util/import_redirect.hpp"
#include "util/shared_library.hpp"

#include <doctest/doctest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <string>

using namespace opm::util;

namespace {

using PidFunction = pid_t (*)();
using UidFunction = uid_t (*)();

pid_t fake_pid() { return 424242; }
pid_t fake_parent_pid() { return 434343; }
uid_t fake_uid() { return 4242; }

struct Probe {
  PidFunction pid = nullptr;               // calls getpid
  UidFunction (*uid_function)() = nullptr; // the address of getuid it holds
};

Probe load_probe() {
  auto library = SharedLibrary::open(OPM_IMPORT_PROBE);
  REQUIRE(library);
  Probe probe;
  REQUIRE(library->resolve("opm_probe_pid", probe.pid));
  REQUIRE(library->resolve("opm_probe_uid_function", probe.uid_function));
  return probe;
}

} // namespace

TEST_SUITE("import redirect") {
  TEST_CASE("a library's calls of an imported function go to the replacement, no one else's") {
    Probe probe = load_probe();
    REQUIRE(probe.pid() == ::getpid());
    REQUIRE(
        redirect_import("libopm_import_probe.so", "getpid", reinterpret_cast<void*>(&fake_pid)));
    CHECK(probe.pid() == 424242);
    CHECK(::getpid() != 424242);
  }

  TEST_CASE("a function whose address the library took is replaced there too") {
    Probe probe = load_probe();
    REQUIRE(probe.uid_function()() == ::getuid());
    REQUIRE(
        redirect_import("libopm_import_probe.so", "getuid", reinterpret_cast<void*>(&fake_uid)));
    CHECK(probe.uid_function()() == 4242);
    CHECK(::getuid() != 4242);
  }

  TEST_CASE("nothing is redirected for a library not loaded or a function not imported") {
    load_probe();
    CHECK_FALSE(
        redirect_import("libopm-not-loaded.so", "getpid", reinterpret_cast<void*>(&fake_pid)));
    CHECK_FALSE(
        redirect_import("libopm_import_probe.so", "getppid", reinterpret_cast<void*>(&fake_pid)));
  }

  TEST_CASE("the main program's own calls are redirected under the empty name") {
    void* libc = ::dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    REQUIRE(libc != nullptr);
    void* real = ::dlsym(libc, "getppid");
    ::dlclose(libc);
    REQUIRE(real != nullptr);
    const pid_t parent = ::getppid();
    REQUIRE(redirect_import("", "getppid", reinterpret_cast<void*>(&fake_parent_pid)));
    const pid_t redirected = ::getppid();
    REQUIRE(redirect_import("", "getppid", real));
    CHECK(redirected == 434343);
    CHECK(::getppid() == parent);
  }

  TEST_CASE("a loaded library is found by the start of its file name") {
    load_probe();
    CHECK(library_loaded("libopm_import_probe.so"));
    CHECK(library_loaded("libc.so"));
    CHECK_FALSE(library_loaded("libopm-not-loaded.so"));
    CHECK_FALSE(library_loaded(""));
  }

  TEST_CASE("the file holding an address is named as redirect_import names it") {
    Probe probe = load_probe();
    CHECK(file_holding(reinterpret_cast<const void*>(&fake_pid)) == std::string());
    CHECK(file_holding(reinterpret_cast<const void*>(probe.pid)) ==
          std::string("libopm_import_probe.so"));
    CHECK_FALSE(file_holding(nullptr).has_value());
  }
}
