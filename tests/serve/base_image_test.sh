#!/usr/bin/env bash
# The opm base image run as a cluster runs it, without a container engine: built by
# scripts/build-image.sh into an OCI layout (twice: the same digest), a catalog image built
# on it by `opm alpha catalog build`, its layers unpacked into a root directory, and its
# command (`/bin/opm serve /configs --cache-dir=/tmp/cache`) started in that root as user
# 1001 with only the host's network (own mount and pid namespaces, /proc and a minimal /dev
# as a runtime mounts them). The image's own grpc_health_probe, found by name on the image's
# PATH, probes it; a real gRPC client queries it from outside. A library missing from the
# image fails here. Needs root (chroot, unshare).
source "$OPM_TESTS/serve/lib/common.bash"
source "$OPM_TESTS/serve/lib/root.bash"

if [ "$(id -u)" -ne 0 ] || ! unshare --mount --pid --fork true 2>/dev/null; then
  echo "skipped: needs root and unshare for the chroot"
  exit 77
fi
BUILD_IMAGE="$OPM_TESTS/../scripts/build-image.sh"
IMAGE_PY="$OPM_TESTS/serve/lib/image.py"
export SOURCE_DATE_EPOCH=1700000000

# The image, twice, from the same binary: the same digest.
first=$("$BUILD_IMAGE" --opm "$OPM" --tag "oci:$WORK/base:v1") || fail "build-image failed"
second=$("$BUILD_IMAGE" --opm "$OPM" --tag "oci:$WORK/again:v1") || fail "second build failed"
expect_eq "the same build gives the same digest" "$first" "$second"
[[ "$first" == sha256:* ]] || fail "no digest printed: $first"

"$PYTHON" "$IMAGE_PY" "$WORK/base" config >base-config.json
"$PYTHON" - base-config.json <<'PY' || fail "base image config: $(cat base-config.json)"
import json, sys
config = json.load(open(sys.argv[1]))
c = config["config"]
assert c["Entrypoint"] == ["/bin/opm"], c
assert c["User"] == "1001", c
assert c["WorkingDir"] == "/", c
assert config["created"] == "2023-11-14T22:13:20Z", config["created"]
for key in ("source", "version", "revision", "licenses", "created"):
    label = "org.opencontainers.image." + key
    assert key == "source" or label in c["Labels"], label
PY

# A catalog image on it, its layers unpacked into a root as a runtime would.
cp -r "$DATA/catalog" catalog
run_opm alpha catalog build catalog --base-image "oci:$WORK/base:v1" --tag "oci:$WORK/catalog:v1"
expect_rc 0
ROOT="$WORK/root"
unpack_image "$WORK/catalog" "$ROOT" || fail "unpacking the catalog image"
[ ! -e "$ROOT/bin/sh" ] || fail "the image has a shell"
[ -z "$(readelf -S "$ROOT/bin/opm" | grep debug_info)" ] || fail "/bin/opm is not stripped"
expect_eq "/tmp is writable by all" "1777" "$(stat -c %a "$ROOT/tmp")"
grep -q '^opm:x:1001:1001:' "$ROOT/etc/passwd" || fail "no user 1001: $(cat "$ROOT/etc/passwd")"
IMAGE_PATH=$("$PYTHON" "$IMAGE_PY" "$WORK/catalog" env PATH)
mapfile -t COMMAND < <("$PYTHON" "$IMAGE_PY" "$WORK/catalog" command)
expect_eq "the catalog image's command" "/bin/opm serve /configs --cache-dir=/tmp/cache" \
  "${COMMAND[*]}"

# probe ARGS...: the image's own probe, called by name as an exec probe calls it.
probe() {
  RC=0
  in_root "$ROOT" "$IMAGE_PATH" grpc_health_probe "$@" >"$WORK/out" 2>"$WORK/err" || RC=$?
}

# A request made from inside the image: libcurl, which opm loads when it first makes one, is
# in the image with what it loads.
RC=0
in_root "$ROOT" "$IMAGE_PATH" opm render --use-http "127.0.0.1:$(free_port)/test/x:v1" \
  >"$WORK/out" 2>"$WORK/err" || RC=$?
expect_rc 1
grep -q "Couldn't connect to server" "$WORK/err" || fail "no request from the image: $(cat "$WORK/err")"

# mimalloc, which opm opens by name for the commands that run and exit, is in the image where
# the machine that built it has it.
host_mimalloc=$(ldconfig -p | awk '$1 == "libmimalloc.so.2" && !found {print $NF; found = 1}')
if [ -n "$host_mimalloc" ]; then
  [ -e "$ROOT$host_mimalloc" ] || fail "no $host_mimalloc in the image"
fi

# A layer unpacked inside the image: libarchive, loaded when a layer is first unpacked, is
# there too.
cp -r "$WORK/catalog" "$ROOT/tmp/layout" && chmod -R a+rX "$ROOT/tmp/layout"
RC=0
in_root "$ROOT" "$IMAGE_PATH" opm __pull --no-cache --unpack /tmp/unpacked oci:/tmp/layout:v1 \
  >"$WORK/out" 2>"$WORK/err" || RC=$?
expect_rc 0
[ -f "$ROOT/tmp/unpacked/configs/etcd/catalog.json" ] ||
  fail "no layer unpacked in the image: $(cat "$WORK/err"; ls -R "$ROOT/tmp/unpacked")"
rm -rf "$ROOT/tmp/layout" "$ROOT/tmp/unpacked"

PORT=$(free_port)
probe -addr=":$PORT"
expect_rc 2
expect_text err "timeout: failed to connect service \":$PORT\" within 1s
"

in_root "$ROOT" "$IMAGE_PATH" "${COMMAND[@]}" -p "$PORT" >server.out 2>server.err &
SERVER_PID=$!
wait_serving "127.0.0.1:$PORT" "$SERVER_PID" || fail "not serving: $(cat server.err)"
# $SERVER_PID is the shell running in_root; its child is unshare, whose child is the server.
opm_pid=$(ps -o pid= --ppid "$(pgrep -P "$SERVER_PID")" | xargs)
expect_eq "the server runs as user 1001" "1001 opm" "$(ps -o uid=,comm= -p "$opm_pid" | xargs)"

# Generous timeouts: on a loaded machine starting the probe inside the root takes a while.
probe -addr=":$PORT" -connect-timeout=20s -rpc-timeout=20s
expect_rc 0
expect_text err "status: SERVING
"

call api.Registry/ListPackages '{}' >packages.txt || fail "ListPackages: $(cat packages.txt)"
expect_text packages.txt '{"name":"etcd"}
{"name":"prometheus"}
{"name":"vault"}
'
grep -q "level=fatal\|level=error" server.err && fail "server logged an error: $(cat server.err)"

kill -TERM "$opm_pid"
wait_server
expect_rc 0
echo ok
