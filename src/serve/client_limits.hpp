#pragma once

#include <chrono>

// What one client connection may do, however it reaches gRPC (serve/socket_watch.hpp, or
// serve/relay.hpp where gRPC's calls cannot be watched).
namespace opm::serve {

// A connection may reset k_reset_burst streams at once, and k_resets_per_second more each
// second after that.
inline constexpr int k_reset_burst = 200;
inline constexpr int k_resets_per_second = 100;

// How long a client that reads nothing may hold up an answer.
inline constexpr auto k_client_stall = std::chrono::seconds(10);
// How long a client has to close its side once the server has closed its own.
inline constexpr auto k_client_close = std::chrono::seconds(1);

} // namespace opm::serve
