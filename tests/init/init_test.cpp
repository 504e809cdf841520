#include "init/init.hpp"
#include "support/temp_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>

namespace fs = std::filesystem;
using opm::init::make_package;

using opm::test::TempDir;

TEST_SUITE("init") {
  TEST_CASE("builds the package with icon bytes, media type and exact description") {
    TempDir dir;
    auto icon = dir.write("icon.svg", "<svg></svg>");
    auto readme = dir.write("README.md", "x\r\nline2  \n\n");
    auto pkg = make_package({"foo", "stable", icon, readme});
    REQUIRE(pkg);
    CHECK(pkg->name == "foo");
    CHECK(pkg->default_channel == "stable");
    CHECK(pkg->description == "x\r\nline2  \n\n");
    REQUIRE(pkg->icon);
    CHECK(pkg->icon->data == "<svg></svg>");
    CHECK(pkg->icon->mediatype == "image/svg+xml");
  }

  TEST_CASE("no icon and no description unless given") {
    auto pkg = make_package({"Foo Bar", "", {}, {}});
    REQUIRE(pkg);
    CHECK_FALSE(pkg->icon);
    CHECK(pkg->description.empty());
  }

  TEST_CASE("opens the icon before the description, reads the description first") {
    TempDir dir;
    auto missing = dir.path() / "missing";
    auto pdf = dir.write("x.pdf", "%PDF-1.4");
    CHECK(make_package({"a", "", missing, missing}).error().message() ==
          "open icon file: open " + missing.string() + ": no such file or directory");
    CHECK(make_package({"a", "", pdf, missing}).error().message() ==
          "open description file: open " + missing.string() + ": no such file or directory");
    CHECK(make_package({"a", "", dir.path(), dir.path()}).error().message() ==
          "read description: read " + dir.path().string() + ": is a directory");
    CHECK(make_package({"a", "", dir.path(), {}}).error().message() ==
          "read icon: read " + dir.path().string() + ": is a directory");
  }

  TEST_CASE("rejects empty and non-image icons with upstream's messages") {
    TempDir dir;
    CHECK(make_package({"a", "", dir.write("e", ""), {}}).error().message() ==
          "detect icon mediatype: Empty buffer");
    CHECK(make_package({"a", "", dir.write("p", "%PDF-1.4"), {}}).error().message() ==
          "detected invalid type \"application/pdf\": not an image");
    CHECK(make_package({"a", "", dir.write("t", "hello"), {}}).error().message() ==
          "detected invalid type \"\": not an image");
  }
}
