#pragma once

// `grpc_health_probe`: the same executable under the name OLM's catalog pods probe with
// (`grpc_health_probe -addr=:50051`), with that tool's Go-style flags and exit codes.
namespace opm::cmd {

// True when argv[0] names the probe (its last path component is "grpc_health_probe").
bool invoked_as_health_probe(const char* argv0);

// Parses the probe's flags, makes the health call and returns its exit code: 0 serving,
// 1 invalid arguments, 2 connection failure, 3 rpc failure, 4 not serving, 20 SPIFFE;
// 2 also for flags Go's flag package refuses, 0 for -h.
int run_health_probe(int argc, char** argv);

} // namespace opm::cmd
