#!/usr/bin/env bash
# opm alpha diff on bad input: one line naming the file and line or the reference, exit 1,
# nothing on stdout.
source "$OPM_TESTS/cli/lib/common.bash"

cp -r "$OPM_TESTS/data/diff/base" base

# expect_error ARGS... -- LINE: opm alpha diff ARGS fails with exactly LINE on stderr.
expect_error() {
  local args=()
  while [ "$1" != -- ]; do
    args+=("$1")
    shift
  done
  run_opm alpha diff "${args[@]}"
  expect_rc 1
  [ -s out ] && fail "unexpected stdout: $(cat out)"
  expect_err_line "$2"
}

expect_error base missing -- \
  'time="T" level=fatal msg="render reference \"missing\": stat missing: no such file or directory; not an image reference either: repository name must be canonical; did you mean \"docker.io/library/missing:latest\"?"'

mkdir malformed && printf 'schema: olm.package\nname: [\n' >malformed/index.yaml
expect_error base malformed -- \
  'time="T" level=fatal msg="malformed/index.yaml:3:1: render reference \"malformed\": error converting YAML to JSON: yaml: line 2: did not find expected node content"'

mkdir orphan && printf '{"schema":"olm.bundle","name":"x","package":"nope","image":"x:1"}\n' >orphan/b.json
expect_error orphan base -- \
  'time="T" level=fatal msg="orphan/b.json:1: load catalog \"orphan\": unknown package \"nope\" for bundle \"x\""'

# Flag mistakes are usage errors: cobra's "Error: ..." line, then the usage block.
# expect_usage_error ARGS... -- LINE
expect_usage_error() {
  local args=()
  while [ "$1" != -- ]; do
    args+=("$1")
    shift
  done
  run_opm alpha diff "${args[@]}"
  expect_rc 1
  [ -s out ] && fail "unexpected stdout: $(cat out)"
  expect_eq "first line of stderr" "$2" "$(head -n 1 err)"
  grep -qx '  opm alpha diff OLD NEW \[flags\]' err || fail "no usage block: $(cat err)"
}

expect_usage_error base base --check-upgrades --allow nothing -- \
  'Error: invalid --allow: unknown rule "nothing", expected one of: upgrade-path, head-downgrade, default-channel, unannounced-removal'
expect_usage_error base base -o sarif -- \
  'Error: --output github, sarif and junit report the upgrade check: they need --check-upgrades'
expect_usage_error base base -o xml -- \
  'Error: invalid --output value "xml", expected (text|markdown|json|github|sarif|junit)'
expect_usage_error base base --allow head-downgrade -- \
  'Error: --allow needs --check-upgrades'
expect_usage_error base -- 'Error: accepts 2 arg(s), received 1'
echo "ok - alpha diff errors"
