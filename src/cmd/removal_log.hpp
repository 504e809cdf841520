#pragma once

#include "cli/context.hpp"
#include "index/remove.hpp"
#include "util/log.hpp"
#include "util/strings.hpp"

#include <fmt/format.h>

#include <string>

// The lines upstream's package remover logs from a logger of its own (without the command's
// fields), shared by `opm index rm|prune|prune-stranded` and `opm registry
// rm|prune|prune-stranded`.
namespace opm::cmd {

inline void log_stranded_removed(cli::Context& ctx) {
  ctx.err << util::logrus_line("info", "removing stranded bundles ", ctx.err_is_tty);
}

// "deleting packages" and "packages: [<name>]", each with the field pkg=<name>.
inline void log_deleting_package(cli::Context& ctx, const std::string& package) {
  ctx.err << util::logrus_line("info", "deleting packages", ctx.err_is_tty, {{"pkg", package}});
  ctx.err << util::logrus_line("info", "packages: [" + package + "]", ctx.err_is_tty,
                               {{"pkg", package}});
}

// A package named to be kept that the index does not have: a typo would otherwise remove the
// package meant, silently.
inline void warn_package_not_stored(cli::Context& ctx, const std::string& package) {
  ctx.err << util::logrus_line("warning",
                               fmt::format("package {} is not in the index: nothing is kept for it",
                                           util::go_quote(package)),
                               ctx.err_is_tty);
}

// The logging hooks of a RemoveRequest.
inline void add_removal_logs(cli::Context& ctx, index::RemoveRequest& request) {
  request.stranded_removed = [&ctx] { log_stranded_removed(ctx); };
  request.deleting = [&ctx](const std::string& p) { log_deleting_package(ctx, p); };
  request.not_stored = [&ctx](const std::string& p) { warn_package_not_stored(ctx, p); };
}

} // namespace opm::cmd
