// `opm __push`: a hidden command that pushes an image from an OCI layout with the registry
// client, for the project's registry test suite and for debugging pushes by hand.
#include "cmd/commands.hpp"
#include "cmd/registry_options.hpp"
#include "registry/layout.hpp"
#include "registry/location.hpp"
#include "registry/push.hpp"
#include "util/interrupt.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>

namespace opm::cmd {

namespace {

struct PushFlags {
  std::string source;
  std::string ref;
  std::string mount_from;
  std::string registries_conf;
  std::string ca_file;
  std::uint64_t chunk_size = registry::k_default_push_chunk;
  long retry_delay_ms = -1;
  int max_attempts = 0;
  bool debug = false;
};

Result<void> run_push(Context& ctx, const PushFlags& f) {
  OPM_TRY(registry::check_flag_combination(ctx.global.use_http, ctx.global.skip_tls_verify,
                                           ctx.global.skip_tls));
  auto source = registry::parse_image_location(f.source);
  if (!source || source->layout() == nullptr) {
    return util::fail(Errc::usage, fmt::format("source {} is not oci:DIR[:TAG]", f.source));
  }
  registry::Options o = registry_options(ctx);
  o.registries_conf = f.registries_conf;
  o.ca_file = f.ca_file;
  if (f.retry_delay_ms >= 0) {
    o.retry.initial_delay = std::chrono::milliseconds(f.retry_delay_ms);
  }
  if (f.max_attempts > 0) {
    o.retry.max_attempts = f.max_attempts;
  }
  o.log = stderr_log(ctx, f.debug ? registry::LogLevel::debug : registry::LogLevel::warn);
  util::InterruptScope interrupts;
  const auto& [dir, tag] = *source->layout();
  auto top = OPM_TRY(registry::resolve_layout_ref(dir, tag));
  registry::Pusher pusher(o, f.chunk_size);
  auto at = OPM_TRY(pusher.target(f.ref));
  auto digest = OPM_TRY(registry::push_layout_image(pusher, at, dir, top, f.mount_from));
  auto s = pusher.stats();
  ctx.out << fmt::format("{} {}\n", f.ref, digest);
  ctx.out << fmt::format("uploaded={} bytes={} present={} mounted={} manifests={}\n",
                         s.blobs_uploaded, s.bytes_uploaded, s.blobs_present, s.blobs_mounted,
                         s.manifests_put);
  return {};
}

} // namespace

void add_push_debug(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<PushFlags>();
  auto* sub = parent.add_subcommand("__push", "Push an image with the registry client (debugging)");
  sub->group("");
  sub->fallthrough();
  sub->add_option("source", flags->source, "oci:DIR[:TAG]")->required();
  sub->add_option("ref", flags->ref, "where to push: host/repo:tag")->required();
  sub->add_option("--mount-from", flags->mount_from, "repository to mount blobs from");
  sub->add_option("--chunk-size", flags->chunk_size, "larger blobs are sent in chunks of this");
  sub->add_option("--registries-conf", flags->registries_conf, "registries.conf to use");
  sub->add_option("--ca-file", flags->ca_file, "extra PEM roots");
  sub->add_option("--retry-delay-ms", flags->retry_delay_ms, "first retry delay");
  sub->add_option("--max-attempts", flags->max_attempts, "attempts per request");
  sub->add_flag("--debug", flags->debug, "log every HTTP exchange to stderr");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.style = FatalStyle::go_log;
    chosen.run = [&ctx, flags]() -> Result<void> { return run_push(ctx, *flags); };
  });
}

} // namespace opm::cmd
