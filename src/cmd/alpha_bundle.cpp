#include "cmd/alpha_bundle.hpp"

#include "util/log.hpp"

#include <CLI/CLI.hpp>

namespace opm::cmd {

namespace alpha_bundle {

Result<void> as_cobra_error(Result<void> result) {
  if (result || result.error().code() == Errc::usage || result.error().reported()) {
    return result;
  }
  return util::fail(Errc::usage, result.error().describe());
}

std::function<void(const std::string&)> info_log(Context& ctx) {
  return [&ctx](const std::string& message) {
    ctx.err << util::logrus_line("info", message, ctx.err_is_tty);
  };
}

} // namespace alpha_bundle

void add_alpha_bundle(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* bundle =
      add_command(parent, ctx,
                  {.use = "bundle",
                   .short_text = "Operator bundle commands",
                   .long_text = "Generate operator bundle metadata and build bundle image.",
                   .args = Args::none(),
                   .runnable = false});
  alpha_bundle::add_generate(*bundle, ctx, chosen);
  alpha_bundle::add_build(*bundle, ctx, chosen);
  alpha_bundle::add_validate(*bundle, ctx, chosen);
  alpha_bundle::add_extract(*bundle, ctx, chosen);
  alpha_bundle::add_unpack(*bundle, ctx, chosen);
}

} // namespace opm::cmd
