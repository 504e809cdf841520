#pragma once

#include "bundle/migrations.hpp"
#include "util/error.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace opm::cmd {

// --migrate-level of render, migrate and alpha render-template: the last FBC migration to run.
inline CLI::Option* add_migrate_level_flag(CLI::App& sub, std::string& level) {
  return sub.add_option("--migrate-level", level,
                        "Name of the last migration to run (default: none)\n" +
                            bundle::migrations_help());
}

// The migrations a --migrate-level selects: none when it is not given.
// Error: `unknown migration level "<level>"`.
inline Result<std::vector<bundle::Migration>> migrations_for_level(const std::string& level) {
  if (level.empty()) {
    return std::vector<bundle::Migration>{};
  }
  return bundle::migrations_up_to(level);
}

} // namespace opm::cmd
