#include "cmd/index_common.hpp"

namespace opm::cmd::index_cmd {

// `opm index prune`: keeps only the listed packages.
void add_index_prune(CLI::App& parent, Context& ctx, Action& chosen) {
  add_index_packages(parent, ctx, chosen,
                     {"prune", "prune an index of all but specified packages", "-p,--packages",
                      "comma separated list of packages to keep", "index to prune", "packages",
                      "pruning the index", false, index::prune_packages});
}

} // namespace opm::cmd::index_cmd
