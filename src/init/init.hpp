#pragma once

#include "catalog/declcfg.hpp"
#include "util/error.hpp"

#include <filesystem>
#include <string>

// `opm init`: one olm.package object from a name, a default channel, an icon file and
// a description file (upstream alpha/action/init.go).
namespace opm::init {

struct Options {
  std::string package;
  std::string default_channel;
  std::filesystem::path icon;        // empty: no icon
  std::filesystem::path description; // empty: no description
};

// Opens the icon, then the description; reads the description (bytes kept exactly),
// then the icon, whose media type must be an image. Errors carry upstream's texts:
// "open icon file: open x: no such file or directory", "read description: ...",
// "detect icon mediatype: Empty buffer", `detected invalid type "application/pdf": not
// an image`.
Result<catalog::Package> make_package(const Options& options);

} // namespace opm::init
