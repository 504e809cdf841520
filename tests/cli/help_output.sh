#!/usr/bin/env bash
# --help prints cobra's help text on stdout, generated from the command definitions.
source "$OPM_TESTS/cli/lib/common.bash"

check_help() { # GOLDEN ARGS...
  local golden="$1"
  shift
  run_opm "$@"
  expect_rc 0
  expect_file out "$DATA/$golden"
  [ -s err ] && fail "stderr for $*: $(cat err)"
}

{ printf 'Generate an olm.package declarative config blob\n\n'; cat "$DATA/init_usage.txt"; } >init_help.txt
DATA="$WORK" check_help init_help.txt init --help
DATA="$WORK" check_help init_help.txt help init
DATA="$WORK" check_help init_help.txt init -h extra args
check_help generate_dockerfile_help.txt generate dockerfile --help
check_help generate_help.txt generate
check_help generate_help.txt generate --help
check_help version_help.txt version --help
check_help completion_help.txt completion
check_help completion_powershell_help.txt completion powershell --help
# alpha is hidden from the root, not its own subcommands.
check_help alpha_help.txt alpha --help
check_help alpha_render_template_help.txt alpha render-template --help
check_help alpha_catalog_build_help.txt alpha catalog build --help
check_help alpha_filter_help.txt alpha filter --help
check_help alpha_pin_help.txt alpha pin --help
check_help alpha_convert_template_help.txt alpha convert-template
check_help alpha_convert_template_substitutes_help.txt alpha convert-template substitutes -h

# The SQLite commands of v1.26.5, as its --help prints them (migrate with latest upstream's
# --migrate-level added).
check_help index_export_help.txt index export --help
check_help index_help.txt index --help
for group in index registry; do
  check_help "${group}_deprecatetruncate_help.txt" "$group" deprecatetruncate --help
done
check_help migrate_help.txt migrate --help
check_help registry_serve_help.txt registry serve --help
for sub in add rm prune prune-stranded; do
  check_help "registry_${sub//-/_}_help.txt" registry "$sub" --help
  check_help "index_${sub//-/_}_help.txt" index "$sub" --help
done

# The root lists visible commands sorted by name, alpha only with HELP_ALPHA=true.
run_opm --help
expect_rc 0
grep -q '^  init        Generate an olm.package declarative config blob$' out || fail "init not listed"
grep -q '^  help        Help about any command$' out || fail "help not listed"
grep -q '^  alpha' out && fail "alpha listed without HELP_ALPHA"
grep -q '__generate-man' out && fail "hidden command listed"
grep -q '^  migrate     Migrate a sqlite-based index image or database file to a file-based catalog$' out ||
  fail "migrate not listed"
grep -q '^  registry    interact with operator-registry database$' out || fail "registry not listed"
HELP_ALPHA=true "$OPM" --help >alpha_out
grep -q '^  alpha       Run an alpha subcommand$' alpha_out || fail "alpha not listed with HELP_ALPHA=true"
exit 0
