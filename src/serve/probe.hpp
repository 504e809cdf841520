#pragma once

#include <chrono>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

// grpc_health_probe, the exec probe OLM's catalog pods run (`grpc_health_probe
// -addr=:50051`): one grpc.health.v1.Health/Check call. It needs gRPC, so it lives in the
// serve module and is reached through its own C function, opm_serve_probe_entry().
namespace opm::serve {

// grpc_health_probe's exit codes.
enum ProbeStatus : int {
  probe_serving = 0,
  probe_invalid_arguments = 1,
  probe_connection_failure = 2,
  probe_rpc_failure = 3,
  probe_unhealthy = 4,
  probe_spiffe_failure = 20,
};

struct ProbeOptions {
  std::string address; // as given: "host:port" or ":port"
  std::string service;
  std::string user_agent = "grpc_health_probe";
  std::chrono::nanoseconds connect_timeout{std::chrono::seconds(1)};
  std::chrono::nanoseconds rpc_timeout{std::chrono::seconds(1)};
  bool tls = false;
  bool tls_no_verify = false;
  std::string tls_ca_cert;
  std::string tls_client_cert;
  std::string tls_client_key;
  std::string tls_server_name;
  bool gzip = false;
  std::vector<std::pair<std::string, std::string>> headers; // -rpc-header "key: value"
  bool verbose = false;
};

struct ProbeEntry {
  // Makes the call, logs as grpc_health_probe does to `err`, returns a ProbeStatus.
  int (*probe)(const ProbeOptions& options, std::ostream& err) = nullptr;
};

int probe(const ProbeOptions& options, std::ostream& err);

} // namespace opm::serve
