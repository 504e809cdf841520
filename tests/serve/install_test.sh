#!/usr/bin/env bash
# `cmake --install --strip` of the build tree: opm stripped in bin/, opm-serve in lib/opm/
# where the installed opm finds it, man pages and the bash, zsh and fish
# completions; the installed opm validates, serves and is probed.
source "$OPM_TESTS/serve/lib/common.bash"

BUILD_DIR=$(dirname "$OPM")
[ -f "$BUILD_DIR/cmake_install.cmake" ] || { echo "skipped: $OPM is not in a build tree"; exit 77; }
PREFIX="$WORK/prefix"
cmake --install "$BUILD_DIR" --prefix "$PREFIX" --strip >install.log 2>&1 ||
  fail "cmake --install failed: $(cat install.log)"

for f in bin/opm lib/opm/opm-serve share/man/man1/opm.1 share/man/man1/opm-serve.1 \
  share/bash-completion/completions/opm share/zsh/site-functions/_opm \
  share/fish/vendor_completions.d/opm.fish; do
  [ -f "$PREFIX/$f" ] || fail "not installed: $f"
done
for f in bin/opm lib/opm/opm-serve; do
  readelf -S "$PREFIX/$f" | grep -q debug_info && fail "$f is not stripped"
done

OPM="$PREFIX/bin/opm"
run_opm validate "$DATA/catalog"
expect_rc 0
expect_text "$WORK/err" ""

start_server "$DATA/catalog" -t /dev/null
ln -s "$PREFIX/bin/opm" grpc_health_probe
RC=0
./grpc_health_probe -addr=":$PORT" >probe.out 2>probe.err || RC=$?
expect_rc 0
expect_text probe.err "status: SERVING
"
stop_server
expect_rc 0
echo ok
