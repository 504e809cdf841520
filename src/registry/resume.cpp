#include "registry/detail/resume.hpp"

#include "util/interrupt.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

namespace opm::registry {

namespace {

// Progress that makes a new break count as the first one again.
constexpr std::uint64_t k_resume_progress = 1U << 20;

bool is_damaged(const Error& e) {
  return e.message().starts_with("digest mismatch") || e.message().starts_with("size mismatch") ||
         e.message().starts_with("blob is larger");
}

// Whether Content-Range says "bytes <start>-<size-1>/<size>".
bool content_range_ok(const std::optional<std::string>& h, std::uint64_t start, std::int64_t size) {
  if (!h) {
    return false;
  }
  return *h == fmt::format("bytes {}-{}/{}", start, size - 1, size);
}

} // namespace

Result<Response> download_resuming(const SendRequest& send, const Request& request,
                                   const Descriptor& blob, BlobStore::Writer& out,
                                   const RetryPolicy& policy, const Log& log,
                                   const std::function<void(std::uint64_t)>& progress) {
  int breaks = 0;
  std::uint64_t at_last_break = 0;
  for (;;) {
    std::uint64_t offset = out.written();
    Request req = request;
    if (offset > 0) {
      req.set_header("Range", fmt::format("bytes={}-", offset));
    }
    std::optional<Error> sink_error;
    bool first = true;
    req.sink = [&](std::string_view chunk, const Response& so_far) {
      if (first) {
        first = false;
        if (offset > 0 && so_far.status == 200) {
          out.restart(); // Range ignored: start again from zero
        } else if (offset > 0 &&
                   !content_range_ok(so_far.header("content-range"), offset, blob.size)) {
          sink_error = Error(Errc::network,
                             fmt::format("resuming {}: unexpected Content-Range \"{}\"",
                                         blob.digest, so_far.header("content-range").value_or("")));
          return false;
        }
      }
      auto wr = out.write(chunk);
      if (!wr) {
        sink_error = wr.error();
        return false;
      }
      if (progress) {
        progress(out.written());
      }
      return true;
    };
    auto r = send(std::move(req));
    if (sink_error) {
      return std::unexpected(*sink_error);
    }
    if (!r) {
      return std::unexpected(std::move(r).error());
    }
    if (!r->broken()) {
      return r;
    }
    if (util::interrupted()) {
      return util::fail(Errc::network, "interrupted");
    }
    if (out.written() - at_last_break >= k_resume_progress) {
      breaks = 0;
    }
    at_last_break = out.written();
    if (++breaks >= policy.max_attempts) {
      return util::fail(Errc::network, fmt::format("GET blob {}: {} (after {} attempts)",
                                                   blob.digest, r->transport_error, breaks));
    }
    log.debug("blob {} broke after {} bytes ({}); resuming", blob.digest, out.written(),
              r->transport_error);
    std::this_thread::sleep_for(
        std::min<std::chrono::milliseconds>(policy.initial_delay, std::chrono::milliseconds(1000)));
  }
}

Result<void> again_if_damaged(const std::function<Result<void>()>& fetch, std::string_view digest,
                              const Log& log) {
  auto r = fetch();
  if (!r && is_damaged(r.error()) && !util::interrupted()) {
    log.debug("blob {} failed verification ({}); fetching it once more", digest,
              r.error().message());
    r = fetch();
  }
  return r;
}

} // namespace opm::registry
