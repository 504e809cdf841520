#pragma once

#include "registry/http.hpp"
#include "registry/layout.hpp"
#include "registry/manifest.hpp"
#include "registry/options.hpp"
#include "util/error.hpp"

#include <cstdint>
#include <functional>
#include <string_view>

namespace opm::registry {

// One request through the authorising client (retries included).
using SendRequest = std::function<Result<Response>(Request)>;

// The resume layer of blob downloads. Sends `request` (a blob GET) and writes the body
// into `out`; a transfer that breaks part-way is asked for again from the bytes written so
// far with a Range header, pausing min(initial_delay, 1 s) each time, until
// policy.max_attempts breaks in a row happen without 1 MiB of progress between them
// ("GET blob <digest>: <error> (after N attempts)"). A server that answers the Range with
// 200 restarts the blob from zero; a 206 whose Content-Range does not continue where the
// transfer stopped is an error. `progress` hears the bytes written so far. Returns the last
// unbroken response, whatever its status, for the caller to judge.
Result<Response> download_resuming(const SendRequest& send, const Request& request,
                                   const Descriptor& blob, BlobStore::Writer& out,
                                   const RetryPolicy& policy, const Log& log,
                                   const std::function<void(std::uint64_t)>& progress);

// Runs `fetch` once more when it failed verification (a digest or size mismatch, or a
// blob larger than announced): a proxy or mirror may have served a damaged copy.
Result<void> again_if_damaged(const std::function<Result<void>()>& fetch, std::string_view digest,
                              const Log& log);

} // namespace opm::registry
