#pragma once

#include "index/add.hpp"
#include "sqlite/bundle_insert.hpp"

#include <string>
#include <vector>

// One bundle of an `index add` request, unpacked and parsed into the rows the index stores.
namespace opm::index::detail {

struct Input {
  std::string image;
  std::string dir; // where it was unpacked, for the log lines
  bool dependencies_file = false;
  bool properties_file = false;
  std::string package;
  std::vector<std::string> channels;
  std::string default_channel;
  sqlite::NewBundle row;
};

// Unpack `ref` into a fresh ./bundle_tmp<N> directory (named as upstream names it: the name
// shows in the log lines), parse it and remove the directory.
Result<Input> load_bundle(const std::string& ref, const Unpack& unpack);

} // namespace opm::index::detail
