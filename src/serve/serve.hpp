#pragma once

#include "util/error.hpp"

#include <ostream>
#include <string>

// `opm serve DIR`: load and validate a file-based catalog, then answer OLM's api.Registry
// gRPC queries about it until SIGINT or SIGTERM. `opm registry serve` does the same for a
// SQLite index database.
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

// `opm registry serve` (upstream v1.26.5): api.Registry over a copy of a SQLite index
// database, answered by per-call queries.
struct RegistryOptions {
  std::string database = "bundles.db";
  std::string port = "50051";
  std::string termination_log = "/dev/termination-log";
  bool skip_migrate = false;
  std::string timeout_seconds = "infinite";
  bool err_is_tty = false;
  // Where info lines go once the termination log is set up (upstream's stdout hook).
  std::ostream* out = nullptr;
};

// Runs the command; warnings and errors are logged to `err`. Returns after a signal or the
// timeout stopped the server; an Error is the command's error.
Result<void> run_registry(const RegistryOptions& options, std::ostream& err);

} // namespace opm::serve
