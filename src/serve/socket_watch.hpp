#pragma once

#include <chrono>
#include <cstddef>

// Client connections handed to gRPC as they are, with gRPC's own reads and writes of them
// watched on the way: libgrpc's calls of recvmsg, sendmsg and close are redirected here (see
// util/import_redirect.hpp), and every other descriptor passes straight through. What a
// relay between the client and gRPC did (serve/relay.hpp), without copying a byte or waking
// another thread:
// - the client's frame headers are read as gRPC reads them, and a client that resets more
//   streams than its budget allows is told GOAWAY (ENHANCE_YOUR_CALM) after the last whole
//   frame gRPC had sent, then cut off before its resets reach gRPC;
// - a client that takes nothing of an answer for too long is cut off;
// - what a client sent that gRPC did not read is drained before gRPC closes the connection,
//   so that the close ends it with a FIN, not a reset that could cost the client the end of
//   an answer.
namespace opm::serve::socket_watch {

using Clock = std::chrono::steady_clock;

// Redirects libgrpc's calls, once per process. False if that cannot be done (another gRPC
// build, a target this does not know): then connections go through a relay.
bool install();

// Starts watching `fd`, an accepted client connection about to be handed to gRPC. False when
// it cannot be watched (a descriptor number beyond the table): the caller closes it.
bool watch(int fd);

// Connections watched now: accepted, and not yet closed by gRPC.
std::size_t watched();

// Cuts off every client that has taken nothing of a waiting answer for too long.
void cut_stalled(Clock::time_point now);

} // namespace opm::serve::socket_watch
