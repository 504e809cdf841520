// `opm __pull`: a hidden command that drives the registry client directly, for the
// project's registry test suite and for debugging pulls by hand.
#include "cmd/commands.hpp"
#include "cmd/registry_options.hpp"
#include "registry/puller.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <mutex>

namespace opm::cmd {

namespace {

struct PullFlags {
  std::vector<std::string> refs;
  bool labels = false;
  std::string unpack_dir;
  std::vector<std::string> prefixes;
  std::string platform;
  std::string cache_dir;
  bool no_cache = false;
  std::string registries_conf;
  std::string ca_file;
  bool debug = false;
  std::size_t jobs = 8;
  long retry_delay_ms = -1;
  int max_attempts = 0;
  long stall_seconds = 0;
  bool timing = false;
};

registry::Options make_options(Context& ctx, const PullFlags& f) {
  registry::Options o = registry_options(ctx);
  o.platform = f.platform;
  o.cache_disabled = o.cache_disabled || f.no_cache;
  if (!f.cache_dir.empty()) {
    o.cache_dir = f.cache_dir;
  }
  o.registries_conf = f.registries_conf;
  o.ca_file = f.ca_file;
  o.jobs = f.jobs;
  if (f.retry_delay_ms >= 0) {
    o.retry.initial_delay = std::chrono::milliseconds(f.retry_delay_ms);
  }
  if (f.max_attempts > 0) {
    o.retry.max_attempts = f.max_attempts;
  }
  if (f.stall_seconds > 0) {
    o.timeouts.stall = std::chrono::seconds(f.stall_seconds);
  }
  o.log = stderr_log(ctx, f.debug          ? registry::LogLevel::debug
                          : ctx.err_is_tty ? registry::LogLevel::info
                                           : registry::LogLevel::warn);

  return o;
}

Result<void> run_pull(Context& ctx, const PullFlags& f) {
  OPM_TRY(registry::check_flag_combination(ctx.global.use_http, ctx.global.skip_tls_verify,
                                           ctx.global.skip_tls));
  auto puller = registry::make_puller(make_options(ctx, f));
  auto started = std::chrono::steady_clock::now();
  std::optional<Error> first_error;
  if (!f.unpack_dir.empty()) {
    for (std::size_t i = 0; i < f.refs.size(); ++i) {
      std::filesystem::path dir = f.refs.size() == 1
                                      ? std::filesystem::path(f.unpack_dir)
                                      : std::filesystem::path(f.unpack_dir) / std::to_string(i);
      if (f.refs.size() > 1) {
        std::error_code ec;
        std::filesystem::create_directories(f.unpack_dir, ec);
      }
      if (f.labels) {
        // render's order: labels first, then the tree
        auto labels = puller->labels(f.refs[i]);
        if (!labels) {
          first_error = first_error.value_or(labels.error());
          ctx.err << "error: " << labels.error().message() << "\n";
          continue;
        }
        nlohmann::json j = *labels;
        ctx.out << f.refs[i] << " " << j.dump() << "\n";
      }
      auto r = puller->unpack(f.refs[i], dir, f.prefixes);
      if (!r) {
        first_error = first_error.value_or(r.error());
        ctx.err << "error: " << r.error().message() << "\n";
      } else {
        ctx.out << f.refs[i] << " unpacked " << dir.string() << "\n";
      }
    }
  } else {
    auto results = puller->pull_all(f.refs);
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (!results[i]) {
        first_error = first_error.value_or(results[i].error());
        ctx.err << "error: " << results[i].error().message() << "\n";
        continue;
      }
      const auto& img = *results[i];
      if (f.labels) {
        nlohmann::json j = img.labels;
        ctx.out << f.refs[i] << " " << j.dump() << "\n";
      } else {
        ctx.out << f.refs[i] << " " << img.digest << " " << img.image_digest << " "
                << img.layers.size() << "\n";
      }
    }
  }
  puller->destroy();
  if (f.timing) {
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - started)
                  .count();
    ctx.err << "elapsed " << ms << " ms\n";
  }
  if (first_error) {
    return std::unexpected(*first_error);
  }
  return {};
}

} // namespace

void add_pull_debug(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<PullFlags>();
  auto* sub = parent.add_subcommand("__pull", "Pull images with the registry client (debugging)");
  sub->group("");
  sub->fallthrough(); // global flags may follow the command name, as with cobra
  sub->add_option("refs", flags->refs, "image references, oci:DIR[:TAG], docker-archive:FILE")
      ->required();
  sub->add_flag("--labels", flags->labels, "print each image's labels as JSON");
  sub->add_option("--unpack", flags->unpack_dir, "unpack into this directory");
  sub->add_option("--prefix", flags->prefixes, "unpack only this subtree (repeatable)");
  sub->add_option("--platform", flags->platform, "os/arch[/variant] to choose from an index");
  sub->add_option("--cache-dir", flags->cache_dir, "blob cache directory");
  sub->add_flag("--no-cache", flags->no_cache, "use a temporary cache removed at exit");
  sub->add_option("--registries-conf", flags->registries_conf, "registries.conf to use");
  sub->add_option("--ca-file", flags->ca_file, "extra PEM roots");
  sub->add_flag("--debug", flags->debug, "log every HTTP exchange to stderr");
  sub->add_option("--jobs", flags->jobs, "images pulled at once");
  sub->add_option("--retry-delay-ms", flags->retry_delay_ms, "first retry delay");
  sub->add_option("--max-attempts", flags->max_attempts, "attempts per request");
  sub->add_option("--stall-seconds", flags->stall_seconds, "abort transfers stalled this long");
  sub->add_flag("--timing", flags->timing, "print the elapsed time to stderr");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.style = FatalStyle::go_log;
    chosen.run = [&ctx, flags]() -> Result<void> { return run_pull(ctx, *flags); };
  });
}

} // namespace opm::cmd
