#include "cli/usage.hpp"
#include "cmd/commands.hpp"
#include "cmd/index_common.hpp"
#include "cmd/required_flags.hpp"
#include "cmd/string_lists.hpp"
#include "index/deprecate.hpp"

namespace opm::cmd::index_cmd {

namespace {

constexpr std::string_view k_deprecate_long =
    "Deprecate and truncate operator bundles from an index.\n\n"
    " Deprecated bundles will no longer be installable. Bundles that are replaced by deprecated "
    "bundles will be removed entirely from the index.\n\n"
    " For example:\n\n"
    "  Given the update graph in quay.io/my/index:v1\n"
    "  1.4.0 -- replaces -> 1.3.0 -- replaces -> 1.2.0 -- replaces -> 1.1.0\n"
    "  \n"
    "  Applying the command:\n"
    "  opm index deprecatetruncate --bundles \"quay.io/my/bundle:1.3.0\" --from-index "
    "\"quay.io/my/index:v1\" --tag \"quay.io/my/index:v2\"\n"
    "  \n"
    "  Produces the following update graph in quay.io/my/index:v2\n"
    "  1.4.0 -- replaces -> 1.3.0 [deprecated]\n"
    "  \n"
    " Deprecating a bundle that removes the default channel is not allowed unless the head(s) of "
    "all channels are being deprecated (the package is subsequently removed from the index). "
    "This behavior can be enabled via the allow-package-removal flag. Changing the default "
    "channel prior to deprecation is possible by publishing a new bundle to the index.";

} // namespace

void add_index_deprecatetruncate(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<IndexFlags>();
  auto allow_removal = std::make_shared<bool>(false);
  auto* sub = add_command(parent, ctx,
                          {.use = "deprecatetruncate",
                           .short_text = "Deprecate and truncate operator bundles from an index.",
                           .long_text = std::string(k_deprecate_long) + k_long_suffix,
                           .args = Args::none(),
                           .hidden = true});
  const CLI::Option* bundles_flag = add_bundle_list_flags(*sub, *flags);
  sub->add_flag("--allow-package-removal", *allow_removal,
                "removes the entire package if the heads of all channels in the package are "
                "deprecated");
  sub->callback([&ctx, &chosen, sub, flags, bundles_flag, allow_removal] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags, bundles_flag, allow_removal]() -> Result<void> {
      OPM_TRY(check_required(ctx, {bundles_flag}));
      auto tools = split_tools(ctx, *flags);
      if (!tools) {
        return fail_like_cobra(ctx, *sub, tools.error());
      }
      return with_session(ctx, *sub, *tools, fail_like_cobra, [&](Session& s) -> Result<void> {
        auto bundles = split_values(flags->list);
        s.fields = {{"bundles", go_list(bundles)}};
        s.log("info", "deprecating bundles from the index");
        auto done = index::update_index_image(
            image_request(*flags), s.steps(), [&](const std::filesystem::path& db) {
              return index::deprecate_truncate(
                  {.database = db,
                   .bundles = bundles,
                   .permissive = flags->permissive,
                   .allow_package_removal = *allow_removal,
                   .tolerated =
                       [&s](const Error& e) {
                         s.log("warning", "permissive mode enabled", {{"error", e.message()}});
                       },
                   .not_tolerated =
                       [&s](const Error& e) {
                         s.log("error", "permissive mode disabled", {{"error", e.message()}});
                       },
                   .info =
                       [&ctx](const std::string& m, const std::vector<std::string>& current) {
                         ctx.err << util::logrus_line("info", m, ctx.err_is_tty,
                                                      {{"bundles", go_list(current)}});
                       }});
            });
        return done;
      });
    };
  });
}
} // namespace opm::cmd::index_cmd
