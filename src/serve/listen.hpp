#pragma once

#include "util/error.hpp"

#include <string>

namespace opm::serve {

// The TCP port Go's net.Listen("tcp", ":"+port) would use: digits, a service name from
// /etc/services, or "" for any free port (0). Errors are upstream's whole message
// ("failed to listen: listen tcp: address tcp/abc: unknown port").
Result<int> resolve_port(const std::string& port);

// The pprof endpoint address check: "host:port" with a valid port, else upstream's
// "could not start pprof endpoint: listen tcp: address bad: missing port in address".
Result<void> check_listen_address(const std::string& address);

// Fails as net.Listen would when nothing can bind to the port on every interface
// ("failed to listen: listen tcp :50051: bind: address already in use").
Result<void> probe_bind(int port, const std::string& port_text);

} // namespace opm::serve
