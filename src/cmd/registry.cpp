#include "cmd/commands.hpp"
#include "cmd/index_common.hpp"
#include "cmd/registry_options.hpp"
#include "cmd/removal_log.hpp"
#include "cmd/required_flags.hpp"
#include "cmd/serve_program.hpp"
#include "cmd/string_lists.hpp"
#include "index/add.hpp"
#include "index/container_tool.hpp"
#include "index/deprecate.hpp"
#include "index/missing_image.hpp"
#include "index/remove.hpp"
#include "registry/puller.hpp"
#include "serve/serve.hpp"
#include "sqlite/deprecation.hpp"
#include "util/interrupt.hpp"
#include "util/log.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <memory>

namespace opm::cmd {

namespace {

struct RegistryAddFlags {
  std::string database = "bundles.db";
  std::vector<std::string> bundles;
  bool permissive = false;
  bool debug = false;
  std::string ca_file;
  std::string mode = "replaces";
  std::string container_tool = "none";
  bool overwrite_latest = false;
  bool enable_alpha = false;
  // Upstream's add declares the TLS flags itself, shadowing the root's.
  bool skip_tls = false;
  bool skip_tls_verify = false;
  bool use_http = false;
};

using index_cmd::k_long_suffix;

// --debug and -d,--database, which every registry subcommand declares first.
void add_database_flags(CLI::App& sub, bool& debug, std::string& database) {
  sub.add_flag("--debug", debug, "enable debug logging");
  sub.add_option("-d,--database", database, "relative path to database file");
}

// -b,--bundle-images and --permissive of registry add and deprecatetruncate.
void add_bundle_images_flags(CLI::App& sub, std::vector<std::string>& bundles, bool& permissive) {
  sub.add_option("-b,--bundle-images", bundles, "comma separated list of links to bundle image");
  sub.add_flag("--permissive", permissive, "allow registry load errors");
}

void add_registry_add(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<RegistryAddFlags>();
  auto* sub =
      add_command(parent, ctx,
                  {.use = "add",
                   .short_text = "add operator bundle to operator registry DB",
                   .long_text = "add operator bundle to operator registry DB" + k_long_suffix,
                   .args = Args::none()});
  add_database_flags(*sub, flags->debug, flags->database);
  add_bundle_images_flags(*sub, flags->bundles, flags->permissive);
  sub->add_option("--ca-file", flags->ca_file,
                  "the root certificates to use when --container-tool=none; see docker/podman "
                  "docs for certificate loading instructions");
  index_cmd::add_mode_flag(*sub, flags->mode);
  sub->add_option("-c,--container-tool", flags->container_tool, index_cmd::k_any_tool_usage);
  auto* skip_tls_flag =
      sub->add_flag("--skip-tls", flags->skip_tls,
                    "use Plain HTTP for container image registries while pulling bundles");
  ctx.meta.deprecate(skip_tls_flag, "use --use-http and --skip-tls-verify instead");
  sub->add_flag("--skip-tls-verify", flags->skip_tls_verify,
                "skip TLS certificate verification for container image registries while pulling "
                "bundles");
  sub->add_flag("--use-http", flags->use_http,
                "use plain HTTP for container image registries while pulling bundles");
  index_cmd::add_latest_flags(*sub, flags->overwrite_latest, flags->enable_alpha);
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags]() -> Result<void> {
      auto fail_like_cobra = [&](const Error& e) {
        return index_cmd::fail_like_cobra(ctx, *sub, e);
      };
      auto mode = index_cmd::parse_mode(flags->mode);
      if (!mode) {
        return fail_like_cobra(mode.error());
      }
      bool skip_tls = flags->skip_tls || ctx.global.skip_tls;
      bool skip_tls_verify = flags->skip_tls_verify || ctx.global.skip_tls_verify;
      bool use_http = flags->use_http || ctx.global.use_http;
      if (auto ok = registry::check_flag_combination(use_http, skip_tls_verify, skip_tls); !ok) {
        return fail_like_cobra(ok.error());
      }
      use_http = use_http || skip_tls;
      if (auto tool = flags->container_tool; !flags->ca_file.empty()) {
        if (skip_tls_verify) {
          return fail_like_cobra(
              Error(Errc::invalid, "--skip-tls-verify must be false when --ca-file is set"));
        }
        if (tool == "docker" || tool == "podman") {
          return fail_like_cobra(Error(
              Errc::invalid, fmt::format("--ca-file cannot be set with --container-tool={0}; "
                                         "certificates must be configured specifically for {0}",
                                         tool)));
        }
      }
      auto bundles = split_values(flags->bundles);
      for (auto [set, name] :
           {std::pair{skip_tls_verify, "--skip-tls-verify"}, std::pair{use_http, "--use-http"}}) {
        if (set) {
          ctx.err << util::logrus_line(
              "warning",
              fmt::format("{} flag is set: this mode is insecure and meant for development "
                          "purposes only.",
                          name),
              ctx.err_is_tty, {{"bundles", go_list(bundles)}});
        }
      }
      ctx.err << util::logrus_line("info", "adding to the registry", ctx.err_is_tty,
                                   {{"bundles", go_list(bundles)}});
      ctx.global.debug = ctx.global.debug || flags->debug;
      auto options = registry_options(ctx);
      options.use_http = use_http;
      options.skip_tls_verify = skip_tls_verify;
      options.ca_file = flags->ca_file;
      const auto jobs = options.jobs;
      auto puller = registry::make_puller(std::move(options));
      // --container-tool podman|docker pulls and copies bundles with that tool, as upstream.
      const auto tool = index::container_tool(flags->container_tool, index::ContainerTool::none);
      auto log = index_cmd::tool_log(ctx, tool, {{"bundles", go_list(bundles)}}, flags->debug);
      auto unpack = [&puller, tool, use_http, &log](
                        const std::string& ref, const std::filesystem::path& dir) -> Result<void> {
        if (tool == index::ContainerTool::none) {
          auto unpacked = puller->unpack(ref, dir, {"manifests", "metadata"});
          if (!unpacked) {
            return std::unexpected(index::bundle_pull_error(ref, std::move(unpacked).error()));
          }
          return {};
        }
        OPM_TRY(index::pull_image(tool, ref, use_http, log));
        return index::copy_image_files(tool, ref, dir, log);
      };
      // Upstream logs why the database could not take the bundles at debug level first.
      auto populate_failed = [&ctx, &bundles, debug = flags->debug](const Error& e) {
        if (debug) {
          ctx.err << util::logrus_line("debug", "unable to populate database: " + e.message(),
                                       ctx.err_is_tty, {{"bundles", go_list(bundles)}});
        }
      };
      auto tolerated = [&ctx, &bundles, &populate_failed](const Error& e) {
        populate_failed(e);
        ctx.err << util::logrus_line("warning", "permissive mode enabled", ctx.err_is_tty,
                                     {{"bundles", go_list(bundles)}, {"error", e.message()}});
      };
      // An interrupt stops the pulls and keeps the database as it was; the signal then ends
      // the process once the temporary files are gone.
      util::InterruptScope interrupts;
      auto added = index::add({.database = flags->database,
                               .bundles = bundles,
                               .mode = *mode,
                               .overwrite_latest = flags->overwrite_latest,
                               .enable_alpha = flags->enable_alpha,
                               .permissive = flags->permissive,
                               .tolerated = tolerated,
                               .cancelled = util::interrupted,
                               .jobs = tool == index::ContainerTool::none ? jobs : 1,
                               .info =
                                   [&ctx](const std::string& m, std::vector<util::LogField> f) {
                                     ctx.err << util::logrus_line("info", m, ctx.err_is_tty, f);
                                   }},
                              unpack);
      puller->destroy();
      if (!added) {
        populate_failed(added.error());
        ctx.err << util::logrus_line(
            "error", "permissive mode disabled", ctx.err_is_tty,
            {{"bundles", go_list(bundles)}, {"error", added.error().message()}});
        return fail_like_cobra(added.error());
      }
      return {};
    };
  });
}

struct RegistryRmFlags {
  bool debug = false;
  std::string database = "bundles.db";
  std::vector<std::string> packages;
  bool permissive = false;
};

// `registry rm` (remove the named packages) and `registry prune` (keep only them).
struct PackagesCommand {
  std::string use;
  std::string short_text;
  std::string long_text;
  std::string packages_flag;
  std::string packages_usage;
  std::string start_message; // logged with the packages before the work starts
  Result<void> (*run)(const index::RemoveRequest&);
};

void add_packages_command(CLI::App& parent, Context& ctx, Action& chosen,
                          const PackagesCommand& spec) {
  auto flags = std::make_shared<RegistryRmFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = spec.use,
                           .short_text = spec.short_text,
                           .long_text = spec.long_text + k_long_suffix,
                           .args = Args::none()});
  add_database_flags(*sub, flags->debug, flags->database);
  const CLI::Option* packages_flag =
      sub->add_option(spec.packages_flag, flags->packages, spec.packages_usage);
  sub->add_flag("--permissive", flags->permissive, "allow registry load errors");
  auto run = spec.run;
  sub->callback(
      [&ctx, &chosen, sub, flags, run, packages_flag, start_message = spec.start_message] {
        chosen.command = sub;
        chosen.run = [&ctx, sub, flags, run, packages_flag, start_message]() -> Result<void> {
          OPM_TRY(check_required(ctx, {packages_flag}));
          auto packages = split_values(flags->packages);
          ctx.err << util::logrus_line("info", start_message, ctx.err_is_tty,
                                       {{"packages", go_list(packages)}});
          index::RemoveRequest request{.database = flags->database,
                                       .packages = packages,
                                       .permissive = flags->permissive,
                                       .tolerated = [&ctx](const Error& e) {
                                         ctx.err << util::logrus_line(
                                             "warning", "permissive mode enabled", ctx.err_is_tty,
                                             {{"error", e.message()}});
                                       }};
          add_removal_logs(ctx, request);
          auto removed = run(request);
          if (removed) {
            return {};
          }
          return index_cmd::fail_removal(ctx, *sub, removed.error());
        };
      });
}

void add_registry_prune_stranded(CLI::App& parent, Context& ctx, Action& chosen) {
  auto database = std::make_shared<std::string>("bundles.db");
  auto debug = std::make_shared<bool>(false);
  auto* sub = add_command(
      parent, ctx,
      {.use = "prune-stranded",
       .short_text = "prune an operator registry DB of stranded bundles",
       .long_text = "prune an operator registry DB of stranded bundles - bundles that are not "
                    "associated with a particular package" +
                    k_long_suffix,
       .args = Args::none()});
  add_database_flags(*sub, *debug, *database);
  sub->callback([&ctx, &chosen, sub, database, debug] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, database]() -> Result<void> {
      ctx.err << util::logrus_line("info", "pruning from the registry", ctx.err_is_tty);
      auto pruned = index::prune_stranded(*database, [&ctx] { log_stranded_removed(ctx); });
      if (pruned) {
        return {};
      }
      return index_cmd::fail_like_cobra(ctx, *sub, pruned.error());
    };
  });
}

struct DeprecateFlags {
  bool debug = false;
  std::string database = "index.db";
  std::vector<std::string> bundles;
  bool permissive = false;
  bool allow_package_removal = false;
};

void add_registry_deprecatetruncate(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<DeprecateFlags>();
  auto* sub =
      add_command(parent, ctx,
                  {.use = "deprecatetruncate",
                   .short_text = "deprecate operator bundle from registry DB",
                   .long_text = "deprecate operator bundle from registry DB" + k_long_suffix,
                   .args = Args::none(),
                   .hidden = true});
  add_database_flags(*sub, flags->debug, flags->database);
  add_bundle_images_flags(*sub, flags->bundles, flags->permissive);
  sub->add_flag("--allow-package-removal", flags->allow_package_removal,
                "removes the entire package if the heads of all channels in the package are "
                "deprecated");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.run = [&ctx, flags]() -> Result<void> {
      auto bundles = split_values(flags->bundles);
      std::vector<util::LogField> fields{{"bundles", go_list(bundles)}};
      auto log = [&](std::string_view level, const std::string& message,
                     std::vector<util::LogField> extra) {
        extra.insert(extra.begin(), fields.begin(), fields.end());
        ctx.err << util::logrus_line(level, message, ctx.err_is_tty, extra);
      };
      log("info", "deprecating from registry", {});
      auto done = index::deprecate_truncate(
          {.database = flags->database,
           .bundles = bundles,
           .permissive = flags->permissive,
           .allow_package_removal = flags->allow_package_removal,
           .tolerated =
               [&](const Error& e) {
                 log("warning", "permissive mode enabled", {{"error", e.message()}});
               },
           .not_tolerated =
               [&](const Error& e) {
                 log("error", "permissive mode disabled", {{"error", e.message()}});
               },
           .info =
               [&](const std::string& m, const std::vector<std::string>& current) {
                 ctx.err << util::logrus_line("info", m, ctx.err_is_tty,
                                              {{"bundles", go_list(current)}});
               }});
      if (!done) {
        log("fatal", done.error().message(), {}); // upstream exits through logrus, no usage
        return std::unexpected(Error::already_reported(Errc::invalid));
      }
      return {};
    };
  });
}

struct RegistryServeFlags {
  serve::RegistryOptions options;
  bool debug = false; // no debug lines exist
};

void add_registry_serve(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<RegistryServeFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "serve",
                           .short_text = "serve an operator-registry database",
                           .long_text = "serve an operator-registry database that is queriable "
                                        "using grpc" +
                                        k_long_suffix,
                           .args = Args::none(),
                           .in_serve_program = true});
  serve::RegistryOptions& o = flags->options;
  sub->add_flag("--debug", flags->debug, "enable debug logging");
  sub->add_option("-d,--database", o.database, "relative path to sqlite db");
  sub->add_option("-p,--port", o.port, "port number to serve on");
  sub->add_option("-t,--termination-log", o.termination_log,
                  "path to a container termination log file");
  sub->add_flag("--skip-migrate", o.skip_migrate,
                "do  not attempt to migrate to the latest db revision when starting");
  sub->add_option("--timeout-seconds", o.timeout_seconds,
                  "Timeout in seconds. This flag will be removed later.");
  sub->callback([&ctx, &chosen, sub, flags] {
    chosen.command = sub;
    chosen.long_running = true;
    chosen.run = [&ctx, sub, flags]() -> Result<void> {
      serve::RegistryOptions options = flags->options;
      options.err_is_tty = ctx.err_is_tty;
      options.out = &ctx.out;
      const serve::ModuleEntry* module = OPM_TRY(serve_module());
      auto served = module->run_registry(options, ctx.err);
      if (served) {
        return {};
      }
      return index_cmd::fail_like_cobra(ctx, *sub, served.error());
    };
  });
}

} // namespace

// `opm registry`: upstream v1.26.5's SQLite database commands.
void add_registry(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* group = add_command(
      parent, ctx,
      {.use = "registry",
       .short_text = "interact with operator-registry database",
       .long_text = "interact with operator-registry database building, modifying and/or serving "
                    "the operator-registry database" +
                    k_long_suffix,
       .args = Args::none(),
       .runnable = false});
  group->parse_complete_callback([&ctx] { log_sqlite_deprecation(ctx); });
  add_registry_add(*group, ctx, chosen);
  add_packages_command(*group, ctx, chosen,
                       {"rm", "remove operator from operator registry DB",
                        "Remove operator from operator registry DB", "-o,--packages",
                        "comma separated list of package names to be deleted",
                        "removing from the registry", index::remove_packages});
  add_packages_command(*group, ctx, chosen,
                       {"prune", "prune an operator registry DB of all but specified packages",
                        "prune an operator registry DB of all but specified packages",
                        "-p,--packages", "comma separated list of package names to be kept",
                        "pruning from the registry", index::prune_packages});
  add_registry_prune_stranded(*group, ctx, chosen);
  add_registry_serve(*group, ctx, chosen);
  add_registry_deprecatetruncate(*group, ctx, chosen);
  // CLI11 hands a hidden parent's (empty) group down to the subcommands; they are listed.
  for (CLI::App* sub : group->get_subcommands([](CLI::App*) { return true; })) {
    sub->group("Subcommands");
  }
}

} // namespace opm::cmd
