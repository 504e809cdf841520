#pragma once

#include "cmd/context.hpp"
#include "registry/location.hpp"
#include "registry/options.hpp"
#include "registry/puller.hpp"
#include "render/render.hpp"
#include "render/render_cache.hpp"
#include "util/interrupt.hpp"

#include <memory>
#include <mutex>
#include <optional>

namespace opm::cmd {

// Registry client options from the global flags and the environment: --use-http (or the
// deprecated --skip-tls), --skip-tls-verify, the blob cache (OLM_CACHE_DIR relocates it,
// OPM_NO_CACHE=1 keeps a private one removed at exit), OPM_JOBS images at once, unpack
// limits.
registry::Options registry_options(const Context& ctx);

// A client log written to stderr as logrus lines, from `level` up.
registry::Log stderr_log(const Context& ctx, registry::LogLevel level);

// Upstream logs its SQLite deprecation notice once per process, when the first SQLite source
// is rendered: a render::Options::on_sqlite that does so.
std::function<void()> sqlite_notice_once(Context& ctx);

// Upstream's SQLite deprecation warning, as a logrus line on stderr.
void log_sqlite_deprecation(const Context& ctx);

// What rendering images uses; must outlive the rendering.
struct ImageRendering {
  // From the first image on, SIGINT and SIGTERM stop the pulls and remove temporary
  // directories before the process ends (a render of directories only stays interruptible
  // at once); declared first so that it ends last.
  std::unique_ptr<util::InterruptScope> interrupts;
  std::once_flag interrupts_started;
  std::unique_ptr<registry::Puller> puller;
  std::optional<render::RenderCache> cache; // beside the blob cache, when there is one
};

// What render is handed is a file, a directory or an image. A reference that is neither an
// existing path nor an image location was most likely meant as a path: the error says that
// first ("stat REF: no such file or directory"), then why it is no image reference either.
// Returns the image location.
Result<registry::ImageLocation> check_path_or_image(const std::string& ref);

// Lets `options` render image references: checks the global TLS flags as upstream's
// CreateCLIRegistry does, makes the puller the worker threads share and the cache of
// rendered bundles, and, when stderr is a terminal, shows progress there.
// `platform` ("os/arch[/variant]", empty = this host's) chooses from multi-platform images.
Result<void> render_images_with_registry(Context& ctx, render::Options& options,
                                         ImageRendering& rendering,
                                         const std::string& platform = {});

// The render options of a command that reads catalogs only (directories, SQLite files and
// catalog images; never bundles): upstream's SQLite notice logged once, images rendered as
// render_images_with_registry sets up, through `rendering`.
Result<render::Options> catalog_render_options(Context& ctx, ImageRendering& rendering);

} // namespace opm::cmd
