#include "cli/usage.hpp"
#include "cmd/commands.hpp"
#include "cmd/index_common.hpp"
#include "cmd/required_flags.hpp"
#include "cmd/string_lists.hpp"
#include "index/add.hpp"
#include "util/interrupt.hpp"

#include <algorithm>

namespace opm::cmd::index_cmd {

namespace {

constexpr std::string_view k_add_long =
    "Add operator bundles to an index.\n\n"
    " This command will add the given set of bundle images (specified by the --bundles option) "
    "to an index image (provided by the --from-index option).\n\n"
    " If multiple bundles are given with '--mode=replaces' (the default), bundles are added to "
    "the index by order of ascending (semver) version unless the update graph specified by "
    "replaces requires a different input order; e.g. 1.0.0 replaces 1.0.1 would result in "
    "[1.0.1, 1.0.0] instead of the [1.0.0, 1.0.1] normally expected of semver. However, for "
    "most cases (e.g. 1.0.1 replaces 1.0.0) the bundle with the highest version is used to set "
    "the default channel of the related package.\n\n"
    " Caveat: in replaces mode, the head of a channel is always the bundle with the highest "
    "semver. Any bundles upgrading from this channel-head will be pruned.\n"
    "----------\n"
    " An upgrade graph that looks like:\n"
    "----------\n"
    " 0.1.1 -> 0.1.2 -> 0.1.2-1\n"
    "----------\n"
    " will be pruned on add to:\n"
    "----------\n"
    " 0.1.1 -> 0.1.2";

constexpr std::string_view k_add_example =
    "  # Create an index image from scratch with a single bundle image\n"
    "  %[1]s --bundles "
    "quay.io/operator-framework/operator-bundle-prometheus@sha256:"
    "a3ee653ffa8a0d2bbb2fabb150a94da6e878b6e9eb07defd40dc884effde11a0 --tag "
    "quay.io/operator-framework/monitoring:1.0.0\n"
    "  \n"
    "  # Add a single bundle image to an index image\n"
    "  %[1]s --bundles quay.io/operator-framework/operator-bundle-prometheus:0.15.0 "
    "--from-index quay.io/operator-framework/monitoring:1.0.0 --tag "
    "quay.io/operator-framework/monitoring:1.0.1\n"
    "  \n"
    "  # Add multiple bundles to an index and generate a Dockerfile instead of an image\n"
    "  %[1]s --bundles "
    "quay.io/operator-framework/operator-bundle-prometheus:0.15.0,quay.io/operator-framework/"
    "operator-bundle-prometheus:0.22.2 --generate";

// Upstream's registry logs why the database could not take the bundles at debug level, before
// it reports the failure.
void log_populate_failure(const Session& s, const Error& e) {
  if (s.tools.debug) {
    s.log("debug", "unable to populate database: " + e.message());
  }
}

std::string add_example() {
  std::string text(k_add_example);
  for (auto at = text.find("%[1]s"); at != std::string::npos; at = text.find("%[1]s")) {
    text.replace(at, 5, "opm index add");
  }
  return text;
}

} // namespace

void add_index_add(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<IndexFlags>();
  auto* sub = add_command(parent, ctx,
                          {.use = "add",
                           .short_text = "Add operator bundles to an index.",
                           .long_text = std::string(k_add_long) + k_long_suffix,
                           .example = add_example(),
                           .args = Args::none()});
  const CLI::Option* bundles_flag = add_bundle_list_flags(*sub, *flags);
  add_mode_flag(*sub, flags->mode);
  add_latest_flags(*sub, flags->overwrite_latest, flags->enable_alpha);
  sub->callback([&ctx, &chosen, sub, flags, bundles_flag] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags, bundles_flag]() -> Result<void> {
      OPM_TRY(check_required(ctx, {bundles_flag}));
      auto mode = parse_mode(flags->mode);
      if (!mode) {
        return fail_like_cobra(ctx, *sub, mode.error());
      }
      auto tools = split_tools(ctx, *flags);
      if (!tools) {
        return fail_like_cobra(ctx, *sub, tools.error());
      }
      // An interrupt stops the pulls and keeps the database as it was; the signal then ends
      // the process once the temporary files are gone.
      util::InterruptScope interrupts;
      return with_session(ctx, *sub, *tools, fail_like_cobra, [&](Session& s) -> Result<void> {
        auto bundles = split_values(flags->list);
        s.fields = {{"bundles", go_list(bundles)}};
        s.log("info", "building the index");
        auto done = index::update_index_image(
            image_request(*flags), s.steps(), [&](const std::filesystem::path& db) -> Result<void> {
              auto added = index::add(
                  {.database = db,
                   .bundles = bundles,
                   .mode = *mode,
                   .overwrite_latest = flags->overwrite_latest,
                   .enable_alpha = flags->enable_alpha,
                   .permissive = flags->permissive,
                   .tolerated =
                       [&s](const Error& e) {
                         log_populate_failure(s, e);
                         s.log("warning", "permissive mode enabled", {{"error", e.message()}});
                       },
                   .cancelled = util::interrupted,
                   .jobs = s.jobs,
                   .info =
                       [&ctx](const std::string& m, std::vector<util::LogField> fields) {
                         ctx.err << util::logrus_line("info", m, ctx.err_is_tty, fields);
                       }},
                  s.bundle_unpack());
              if (!added) {
                log_populate_failure(s, added.error());
                s.log("error", "permissive mode disabled", {{"error", added.error().message()}});
                if (s.tools.debug) {
                  s.log("debug", "unable to add bundle to registry",
                        {{"error", added.error().message()}});
                }
              }
              return added;
            });
        return done;
      });
    };
  });
}
} // namespace opm::cmd::index_cmd
