#pragma once

#include "util/error.hpp"

#include <ostream>
#include <string>

// `opm serve DIR`: load and validate a file-based catalog, then answer OLM's api.Registry
// gRPC queries about it until SIGINT or SIGTERM.
namespace opm::serve {

struct Options {
  std::string configs_dir;
  std::string port = "50051";
  std::string termination_log = "/dev/termination-log";
  std::string cache_dir;
  bool cache_only = false;
  bool enforce_integrity = false; // already resolved against its computed default
  std::string pprof_addr;
  bool err_is_tty = false;
};

// Runs the command; the log goes to `err`. Returns after --cache-only or after a signal
// stopped the server; an Error is the fatal message.
Result<void> run(const Options& options, std::ostream& err);

} // namespace opm::serve
