#pragma once

#include <chrono>
#include <cstddef>

// Client connections handed to gRPC as they are, with gRPC's own reads and writes of them
// watched on the way: libgrpc's calls of recvmsg, sendmsg and close are redirected here (see
// util/import_redirect.hpp), and every other descriptor passes straight through. What a
// relay between the client and gRPC did (serve/relay.hpp), without copying a byte or waking
// another thread:
// - the client's frame headers are read as gRPC reads them. A client that resets more
//   streams than its budget allows is cut off before its resets reach gRPC: what it sends is
//   dropped from then on, it is told GOAWAY (ENHANCE_YOUR_CALM) once gRPC has finished the
//   frame under way (what gRPC writes after is dropped), and the connection ends once the
//   client has closed its side, or k_client_close later;
// - a client that takes nothing of an answer for k_client_stall is cut off.
// gRPC closes each connection itself.
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

// Called about once a second: sends a GOAWAY a cut-off client had no room for yet, and ends
// the connections past their time (see above).
void enforce_deadlines(Clock::time_point now);

} // namespace opm::serve::socket_watch
