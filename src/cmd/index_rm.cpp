#include "cmd/index_common.hpp"

namespace opm::cmd::index_cmd {

// `opm index rm`: deletes the listed operators.
void add_index_rm(CLI::App& parent, Context& ctx, Action& chosen) {
  add_index_packages(parent, ctx, chosen,
                     {"rm", "delete an entire operator from an index", "-o,--operators",
                      "comma separated list of operators to delete",
                      "previous index to delete from", "operators", "building the index", true,
                      index::remove_packages});
}

} // namespace opm::cmd::index_cmd
