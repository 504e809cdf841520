# Setup for the end-to-end scripts in tests/cli/ (sourced, not run by ctest): each script
# gets its own scratch directory, removed only when the script passes, and the shared
# assertions of tests/lib/assert.bash.
set -uo pipefail

: "${OPM:?OPM must name the opm binary}"
: "${OPM_TESTS:?OPM_TESTS must name the tests directory}"
DATA="$OPM_TESTS/data/cli"
unset HELP_ALPHA

WORK="$(mktemp -d "${TMPDIR:-/tmp}/opm-cli-test.XXXXXX")"
trap 'status=$?; if [ $status -eq 0 ]; then rm -rf "$WORK"; else echo "kept $WORK" >&2; fi' EXIT
cd "$WORK" || exit 1

source "$OPM_TESTS/lib/assert.bash"

# bundle_layouts SRC DEST: each bundle directory under SRC as a one-image OCI layout DEST/<name>
# labelled with its metadata annotations, which templates name as oci:DEST/<name> (templates
# take bundle images only). Pulled images are cached in the scratch directory.
bundle_layouts() {
  local b
  export OLM_CACHE_DIR="$WORK/cache"
  for b in "$1"/*/; do
    b=${b%/}
    # shellcheck disable=SC2046
    python3 "$OPM_TESTS/registry/tools/imagetool.py" layout "$2/${b##*/}" latest --files "$b" \
      $(sed -n 's/^  \([^:]*\): \(.*\)$/--label \1=\2/p' "$b/metadata/annotations.yaml") >/dev/null
  done
}
