#include "util/shared_library.hpp"

#include <doctest/doctest.h>

using namespace opm::util;

namespace {

int g_loads = 0;
int g_value = 7;

Result<const int*> load_counted() {
  ++g_loads;
  return &g_value;
}

Result<const int*> load_failing() { return fail(Errc::io, "cannot load libnone.so.0: gone"); }

} // namespace

TEST_SUITE("shared library") {
  TEST_CASE("a library that is not there is named with the loader's words") {
    auto missing = SharedLibrary::open("libopm-not-installed.so.0");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message().starts_with(
        "cannot load libopm-not-installed.so.0: libopm-not-installed.so.0: cannot open shared "
        "object file"));
  }

  TEST_CASE("a function is resolved by name, a missing one is named in the error") {
    auto libc = SharedLibrary::open("libc.so.6");
    REQUIRE(libc);
    int (*to_abs)(int) = nullptr;
    REQUIRE(libc->resolve("abs", to_abs));
    CHECK(to_abs(-3) == 3);
    void (*none)() = nullptr;
    CHECK_FALSE(libc->resolve("opm_no_such_function", none));
    CHECK(libc->missing_symbol().message().starts_with("cannot load libc.so.6: "));
    CHECK(libc->missing_symbol().message().find("opm_no_such_function") != std::string::npos);
  }

  TEST_CASE("a table is loaded once, and a failure is kept") {
    LoadedOnce<int> counted(load_counted);
    CHECK(*counted.get().value() == 7);
    CHECK(*counted.get().value() == 7);
    CHECK(counted.loaded() == 7);
    CHECK(g_loads == 1);
    LoadedOnce<int> failing(load_failing);
    CHECK(failing.get().error().message() == "cannot load libnone.so.0: gone");
    CHECK_FALSE(failing.get());
  }
}
