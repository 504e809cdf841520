#include "cli/usage.hpp"
#include "cmd/commands.hpp"
#include "cmd/index_common.hpp"
#include "cmd/registry_options.hpp"

namespace opm::cmd {

// `opm index`: upstream v1.26.5's SQLite index image commands.
void add_index(CLI::App& parent, Context& ctx, Action& chosen) {
  auto* group = add_command(parent, ctx,
                            {.use = "index",
                             .short_text = "generate operator index container images",
                             .long_text = "generate operator index container images from "
                                          "preexisting operator bundles" +
                                          index_cmd::k_long_suffix,
                             .args = Args::none(),
                             .runnable = false});
  group->parse_complete_callback([&ctx] { log_sqlite_deprecation(ctx); });
  index_cmd::add_index_add(*group, ctx, chosen);
  index_cmd::add_index_rm(*group, ctx, chosen);
  index_cmd::add_index_prune(*group, ctx, chosen);
  index_cmd::add_index_prune_stranded(*group, ctx, chosen);
  index_cmd::add_index_export(*group, ctx, chosen);
  index_cmd::add_index_deprecatetruncate(*group, ctx, chosen);
}

} // namespace opm::cmd
