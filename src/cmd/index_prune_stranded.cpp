#include "cli/usage.hpp"
#include "cmd/commands.hpp"
#include "cmd/index_common.hpp"
#include "cmd/removal_log.hpp"
#include "cmd/required_flags.hpp"

namespace opm::cmd::index_cmd {

void add_index_prune_stranded(CLI::App& parent, Context& ctx, Action& chosen) {
  auto flags = std::make_shared<IndexFlags>();
  auto* sub = add_command(
      parent, ctx,
      {.use = "prune-stranded",
       .short_text = "prune an index of stranded bundles",
       .long_text = "prune an index of stranded bundles - bundles that are not associated with a "
                    "particular package" +
                    k_long_suffix,
       .args = Args::none()});
  add_image_flags(*sub, *flags, false, "index to prune", k_engine_tool_usage, "podman");
  const CLI::Option* from_flag = sub->get_option("--from-index");
  sub->callback([&ctx, &chosen, sub, flags, from_flag] {
    chosen.command = sub;
    chosen.run = [&ctx, sub, flags, from_flag]() -> Result<void> {
      OPM_TRY(check_required(ctx, {from_flag}));
      auto tools = single_tool(ctx, *flags);
      if (!tools) {
        return fail_like_cobra(ctx, *sub, tools.error());
      }
      return with_session(ctx, *sub, *tools, fail_like_cobra, [&](Session& s) -> Result<void> {
        s.log("info", "pruning stranded bundles from the index");
        auto done = index::update_index_image(
            image_request(*flags), s.steps(), [&ctx](const std::filesystem::path& db) {
              return index::prune_stranded(db, [&ctx] { log_stranded_removed(ctx); });
            });
        return done;
      });
    };
  });
}
} // namespace opm::cmd::index_cmd
