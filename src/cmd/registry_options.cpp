#include "cmd/registry_options.hpp"

#include "registry/cache_dir.hpp"
#include "registry/manifest.hpp"
#include "registry/puller.hpp"
#include "render/image.hpp"
#include "sqlite/deprecation.hpp"
#include "util/fs.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"
#include "util/version.hpp"

#include <fmt/format.h>

#include <charconv>
#include <memory>
#include <mutex>
#include <sys/stat.h>

namespace opm::cmd {

namespace {

constexpr std::size_t k_default_jobs = 8;
constexpr std::size_t k_max_jobs = 64;

std::size_t jobs_from_env(const Context& ctx) {
  auto text = ctx.env.get("OPM_JOBS");
  std::size_t jobs = 0;
  if (!text || std::from_chars(text->data(), text->data() + text->size(), jobs).ec != std::errc{} ||
      jobs == 0) {
    return k_default_jobs;
  }
  return std::min(jobs, k_max_jobs);
}

// "rendering 37/122" on one line of a terminal, erased when the last one is done.
std::function<void(std::size_t, std::size_t)> terminal_progress(std::ostream& err) {
  auto mutex = std::make_shared<std::mutex>();
  return [&err, mutex](std::size_t done, std::size_t total) {
    std::lock_guard lock(*mutex);
    if (done == total) {
      err << "\r\033[K" << std::flush;
    } else {
      err << fmt::format("\rrendering {}/{}", done, total) << std::flush;
    }
  };
}

} // namespace

Result<registry::ImageLocation> check_path_or_image(const std::string& ref) {
  auto as_image = registry::parse_image_location(ref);
  if (as_image) {
    return as_image;
  }
  struct stat st {};
  int err = ::stat(ref.c_str(), &st) == 0 ? 0 : errno;
  return util::fail(Errc::not_found,
                    fmt::format("stat {}: {}; not an image reference either: {}", ref,
                                util::errno_text(err), as_image.error().message()));
}

namespace {

bool env_flag(const Context& ctx, const std::string& name) {
  auto value = util::ascii_lower(ctx.env.get(name).value_or(""));
  return value == "1" || value == "true" || value == "yes";
}

} // namespace

registry::Log stderr_log(const Context& ctx, registry::LogLevel level) {
  registry::Log log;
  log.level = level;
  auto mutex = std::make_shared<std::mutex>();
  log.sink = [&err = ctx.err, mutex](registry::LogLevel l, std::string_view message) {
    std::lock_guard lock(*mutex);
    err << util::logrus_line(l == registry::LogLevel::debug  ? "debug"
                             : l == registry::LogLevel::info ? "info"
                                                             : "warning",
                             message, false);
  };
  return log;
}

void log_sqlite_deprecation(const Context& ctx) {
  ctx.err << util::logrus_line("warning", sqlite::k_sqlite_deprecation_notice, ctx.err_is_tty);
}

std::function<void()> sqlite_notice_once(Context& ctx) {
  auto once = std::make_shared<std::once_flag>();
  return [&ctx, once] { std::call_once(*once, [&ctx] { log_sqlite_deprecation(ctx); }); };
}

registry::Options registry_options(const Context& ctx) {
  registry::Options o;
  o.use_http = ctx.global.use_http || ctx.global.skip_tls;
  o.skip_tls_verify = ctx.global.skip_tls_verify;
  o.env = ctx.env.vars;
  o.cache_dir = registry::default_cache_dir(ctx.env.vars);
  o.cache_disabled = env_flag(ctx, "OPM_NO_CACHE");
  o.jobs = jobs_from_env(ctx);
  o.limits = registry::limits_from_env(ctx.env.vars);
  o.user_agent = fmt::format("opm/{}", util::version());
  // What the client sends and receives, URLs and headers redacted, for any command.
  if (ctx.global.debug || env_flag(ctx, "OPM_DEBUG_REGISTRY")) {
    o.log = stderr_log(ctx, registry::LogLevel::debug);
  } else if (ctx.err_is_tty) {
    o.log = stderr_log(ctx, registry::LogLevel::info); // which host is being retried
  }
  return o;
}

Result<void> render_images_with_registry(Context& ctx, render::Options& options,
                                         ImageRendering& rendering, const std::string& platform) {
  if (auto ok = registry::check_flag_combination(ctx.global.use_http, ctx.global.skip_tls_verify,
                                                 ctx.global.skip_tls);
      !ok) {
    return util::fail(Errc::invalid, ok.error().message());
  }
  auto reg = registry_options(ctx);
  if (!platform.empty()) {
    OPM_TRY(registry::parse_platform(platform));
    reg.platform = platform;
  }
  options.jobs = reg.jobs;
  if (!reg.cache_disabled && !reg.cache_dir.empty()) {
    rendering.cache = render::RenderCache::open(reg.cache_dir / registry::k_render_cache_dir);
  }
  rendering.puller = registry::make_puller(std::move(reg));
  options.render_image =
      [&rendering, on_sqlite = options.on_sqlite](
          const std::string& ref,
          const render::AllowedImages& allowed) -> Result<catalog::DeclarativeConfig> {
    auto location = OPM_TRY(check_path_or_image(ref));
    std::call_once(rendering.interrupts_started, [&rendering] {
      rendering.interrupts = std::make_unique<util::InterruptScope>();
    });
    return render::render_image(*rendering.puller, location,
                                {.allow_bundle_image = allowed.bundle,
                                 .allow_catalog_image = allowed.catalog,
                                 .allow_sqlite_image = allowed.sqlite,
                                 .cache = rendering.cache ? &*rendering.cache : nullptr,
                                 .on_sqlite = on_sqlite});
  };
  if (ctx.err_is_tty) {
    options.progress = terminal_progress(ctx.err);
  }
  return {};
}

Result<render::Options> catalog_render_options(Context& ctx, ImageRendering& rendering) {
  render::Options options;
  options.allow_bundle_dirs = false;
  options.allow_bundle_images = false;
  options.on_sqlite = sqlite_notice_once(ctx);
  OPM_TRY(render_images_with_registry(ctx, options, rendering));
  return options;
}

} // namespace opm::cmd
