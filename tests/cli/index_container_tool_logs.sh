#!/usr/bin/env bash
# index add|rm|prune with podman or docker log each engine command as upstream v1.26.5 does:
# "running <path> pull REF" for pulls, "running <tool> <verb>" for the others with the argv at
# debug level (--debug), the build's argv at info, and a failed run's output at error level.
# With --debug, index add and registry add log upstream's debug lines about a bundle they cannot
# add. --debug is taken by the commands upstream's take it on, and only by those.
source "$OPM_TESTS/cli/lib/common.bash"

mkdir bin
cat >bin/podman <<'TOOL'
#!/usr/bin/env bash
case $1 in
  pull) if [ -n "${FAIL_PULL:-}" ]; then echo "Error: no such image"; exit 125; fi ;;
  inspect) echo '[{"Labels": {"operators.operatorframework.io.index.database.v1": "/database/index.db"}, "Config": {"Labels": {"operators.operatorframework.io.index.database.v1": "/database/index.db"}}}]' ;;
  create) echo c0ffee ;;
  cp)
    if [ -n "${TOOL_BUNDLE:-}" ]; then mkdir -p "$3" && cp -r "$TOOL_BUNDLE/." "$3/"
    else mkdir -p "$3/database" && cp "$TOOL_DB" "$3/database/index.db"; fi ;;
  rm | build) ;;
  *) exit 1 ;;
esac
TOOL
chmod +x bin/podman
cp bin/podman bin/docker
export TOOL_DB="$OPM_TESTS/data/sqlite/kiwi.db"
BIN="$WORK/bin"
export PATH="$BIN:$PATH"
INDEX=example.com/ops/index:v1

# The lines the commands log, timestamps normalized, without the deprecation notice.
tool_lines() { normalized_err | grep -E 'msg="(running |\[|Getting label|building container|Error)' || true; }

mkdir prune && cd prune || exit 1
run_opm index prune --generate -f "$INDEX" -p plum
expect_rc 0
expect_eq "index prune with podman" "time=\"T\" level=info msg=\"running $BIN/podman pull $INDEX\" packages=\"[plum]\"
time=\"T\" level=info msg=\"running $BIN/podman pull $INDEX\" packages=\"[plum]\"
time=\"T\" level=info msg=\"Getting label data from previous image\" packages=\"[plum]\"
time=\"T\" level=info msg=\"running podman inspect\" packages=\"[plum]\"
time=\"T\" level=info msg=\"running podman create\" packages=\"[plum]\"
time=\"T\" level=info msg=\"running podman cp\" packages=\"[plum]\"
time=\"T\" level=info msg=\"running podman rm\" packages=\"[plum]\"" "$(tool_lines)"
cd .. || exit 1

mkdir rm && cd rm || exit 1
run_opm index rm -f "$INDEX" -o plum -c docker -t example.com/ops/index:v2 --debug
expect_rc 0
# Temporary names as Go's os.MkdirTemp and os.CreateTemp make them: ./<prefix><decimal>.
lines=$(normalized_err | grep -E 'msg="(running |\[|Getting label|building container|writing dockerfile)' |
  sed -E 's/index_tmp_[0-9]+/index_tmp_N/; s/index\.Dockerfile[0-9]+/index.DockerfileN/')
expect_eq "index rm --debug with docker" "time=\"T\" level=info msg=\"running $BIN/docker pull $INDEX\" operators=\"[plum]\"
time=\"T\" level=info msg=\"running $BIN/docker pull $INDEX\" operators=\"[plum]\"
time=\"T\" level=info msg=\"Getting label data from previous image\" operators=\"[plum]\"
time=\"T\" level=info msg=\"running docker inspect\" operators=\"[plum]\"
time=\"T\" level=debug msg=\"[docker inspect $INDEX]\" operators=\"[plum]\"
time=\"T\" level=info msg=\"running docker create\" operators=\"[plum]\"
time=\"T\" level=debug msg=\"[docker create $INDEX ]\" operators=\"[plum]\"
time=\"T\" level=info msg=\"running docker cp\" operators=\"[plum]\"
time=\"T\" level=debug msg=\"[docker cp c0ffee:/. ./index_tmp_N]\" operators=\"[plum]\"
time=\"T\" level=info msg=\"running docker rm\" operators=\"[plum]\"
time=\"T\" level=debug msg=\"[docker rm c0ffee]\" operators=\"[plum]\"
time=\"T\" level=info msg=\"writing dockerfile: ./index.DockerfileN\" operators=\"[plum]\"
time=\"T\" level=debug msg=\"building container image: example.com/ops/index:v2\" operators=\"[plum]\"
time=\"T\" level=info msg=\"running docker build\" operators=\"[plum]\"
time=\"T\" level=info msg=\"[docker build -f ./index.DockerfileN -t example.com/ops/index:v2 .]\" operators=\"[plum]\"" "$lines"
cd .. || exit 1

mkdir add && cd add || exit 1
FAIL_PULL=1 run_opm index add -b "" -f "$INDEX" -c podman --generate
expect_rc 1
expect_eq "index add with a failing pull" "time=\"T\" level=info msg=\"running $BIN/podman pull $INDEX\" bundles=\"[]\"
time=\"T\" level=error msg=\"Error: no such image\\n\" bundles=\"[]\"" "$(tool_lines)"
grep -qx 'Error: error pulling image: Error: no such image' "$WORK/err" || fail "no error line: $(cat "$WORK/err")"
cd .. || exit 1

# A bundle the database cannot take: with --debug, upstream's registry says why at debug level
# before the error, and index add adds its own debug line after it.
export TOOL_BUNDLE="$OPM_TESTS/data/bundles/full"
why='Invalid bundle example-operator.v1.2.3, replaces nonexistent bundle example-operator.v1.2.2'
mkdir bundle && cd bundle || exit 1
run_opm index add -b example.com/ops/bundle:v1 -p podman --generate --debug
expect_rc 1
expect_eq "index add --debug of a bundle the database refuses" \
  "time=\"T\" level=debug msg=\"unable to populate database: $why\" bundles=\"[example.com/ops/bundle:v1]\"
time=\"T\" level=error msg=\"permissive mode disabled\" bundles=\"[example.com/ops/bundle:v1]\" error=\"$why\"
time=\"T\" level=debug msg=\"unable to add bundle to registry\" bundles=\"[example.com/ops/bundle:v1]\" error=\"$why\"" \
  "$(normalized_err | grep -E '^time=.*(unable to|permissive)')"
run_opm registry add -b example.com/ops/bundle:v1 -c podman -d index.db --debug
expect_rc 1
expect_eq "registry add --debug of a bundle the database refuses" \
  "time=\"T\" level=debug msg=\"unable to populate database: $why\" bundles=\"[example.com/ops/bundle:v1]\"
time=\"T\" level=error msg=\"permissive mode disabled\" bundles=\"[example.com/ops/bundle:v1]\" error=\"$why\"" \
  "$(normalized_err | grep -E '^time=.*(unable to|permissive)')"
run_opm registry add -b example.com/ops/bundle:v1 -c podman -d index.db
expect_rc 1
normalized_err | grep -q 'level=debug' && fail "debug lines without --debug: $(cat "$WORK/err")"
unset TOOL_BUNDLE
cd .. || exit 1

# --debug is accepted where upstream v1.73.0 accepts it, and refused where it is not.
for cmd in "index add" "index rm" "index prune" "index prune-stranded" "index export" \
  "index deprecatetruncate" "registry add" "registry rm" "registry prune" \
  "registry prune-stranded" "registry deprecatetruncate" "registry serve" serve ""; do
  # shellcheck disable=SC2086
  run_opm $cmd --debug --help
  [ "$RC" -eq 0 ] || fail "opm $cmd refused --debug: $(cat "$WORK/err")"
done
for cmd in render validate migrate init "alpha list packages"; do
  # shellcheck disable=SC2086
  run_opm $cmd --debug
  expect_rc 1
  head -n 1 "$WORK/err" | grep -qx 'Error: unknown flag: --debug' || fail "opm $cmd took --debug"
done
exit 0
