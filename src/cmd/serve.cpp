#include "cmd/commands.hpp"
#include "cmd/serve_program.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace opm::cmd {

namespace {

struct ServeFlags {
  std::vector<std::string> args;
  serve::Options options;
  bool debug = false;
  bool enforce_integrity = false;
  bool capture_profiles = false;
};

} // namespace

void add_serve(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<ServeFlags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = "serve <source_path>",
       .short_text = "serve declarative configs",
       .long_text = "This command serves declarative configs via a GRPC server.\n\nNOTE: The "
                    "declarative config directory is loaded by the serve command at\nstartup. "
                    "Changes made to the declarative config after the this command starts\nwill "
                    "not be reflected in the served content.\n",
       .args = Args::exact(1),
       .in_serve_program = true},
      &flags->args);
  serve::Options& o = flags->options;
  sub->add_flag("--debug", flags->debug, "enable debug logging");
  sub->add_option("-t,--termination-log", o.termination_log,
                  "path to a container termination log file");
  sub->add_option("-p,--port", o.port, "port number to serve on");
  sub->add_option("--pprof-addr", o.pprof_addr,
                  "address of startup profiling endpoint (addr:port format)");
  // Latest's flag, accepted so that pod specs written for latest start this server unchanged.
  sub->add_flag("--pprof-capture-profiles", flags->capture_profiles, "capture pprof CPU profiles");
  sub->add_option("--cache-dir", o.cache_dir, "if set, sync and persist server cache directory");
  sub->add_flag("--cache-only", o.cache_only, "sync the serve cache and exit without serving");
  auto* enforce = sub->add_flag(
      "--cache-enforce-integrity", flags->enforce_integrity,
      "exit with error if cache is not present or has been invalidated. (default: true when "
      "--cache-dir is set and --cache-only is false, false otherwise), ");

  sub->callback([&ctx, &chosen, flags, sub, enforce] {
    chosen.command = sub;
    chosen.style = FatalStyle::logrus;
    chosen.long_running = true;
    chosen.run = [&ctx, flags, enforce]() -> Result<void> {
      if (flags->args.size() != 1) {
        return util::fail(Errc::usage,
                          fmt::format("accepts 1 arg(s), received {}", flags->args.size()));
      }
      serve::Options run_options = flags->options;
      run_options.configs_dir = flags->args.front();
      run_options.enforce_integrity =
          enforce->count() > 0 ? flags->enforce_integrity
                               : !run_options.cache_dir.empty() && !run_options.cache_only;
      run_options.err_is_tty = ctx.err_is_tty;
      const serve::ModuleEntry* module = OPM_TRY(serve_module());
      return module->run(run_options, ctx.err);
    };
  });
}

} // namespace opm::cmd
