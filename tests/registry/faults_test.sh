#!/usr/bin/env bash
# Flaky networks through a fault-injecting proxy: retries with backoff and Retry-After,
# resets, broken and stalled transfers resumed with Range, corrupted blobs refused,
# redirects that must not carry credentials, schema 1 refusal, and no leftovers.
source "$(dirname "$0")/harness.sh"

make_pki
start_registry plain
PLAIN=$REG
start_fault_proxy "$PLAIN"
B=$WORK/bundle
make_bundle_dir "$B" etcd
mkdir -p "$WORK/big"
head -c 3000000 /dev/urandom > "$WORK/big/blob.bin"
push_image "http://$PLAIN" ops/etcd v1 --files "$B" --label ok=yes > /dev/null
push_image "http://$PLAIN" ops/big v1 --compression none --files "$WORK/big" > /dev/null
LAYER=$(python3 "$TOOLS/httpreq.py" GET "http://$PLAIN/v2/ops/big/manifests/v1" \
  --header "Accept: application/vnd.oci.image.manifest.v1+json" 2> /dev/null |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["layers"][0]["digest"])')

# count METHOD PATH_REGEX [FIELD=VALUE]: requests in the proxy log
count() {
  fault_log | python3 -c '
import json, re, sys
method, path = sys.argv[1], sys.argv[2]
extra = dict(a.split("=", 1) for a in sys.argv[3:])
n = 0
for e in json.load(sys.stdin):
    ranged = extra.pop("ranged", None) if "ranged" in extra else None
    if ranged is not None and (e.get("range") is not None) != (ranged == "1"):
        extra["ranged"] = ranged
        continue
    if ranged is not None:
        extra["ranged"] = ranged
    if e["method"] == method and re.search(path, e["path"]) and all(str(e.get(k)) == v for k, v in extra.items() if k != "ranged"):
        n += 1
print(n)' "$@"
}
PULL=(__pull --use-http --no-cache --retry-delay-ms 50)

fault_rules '[{"path": "/manifests/", "action": "status", "status": 503, "times": 2}]'
expect_ok "two 503s on the manifest are retried" "${PULL[@]}" --labels "$FAULT/ops/etcd:v1"
check "three manifest requests" test "$(count GET /manifests/)" = 3

# On a terminal, the host being retried is said; in a log file it is not.
if command -v script > /dev/null 2>&1 && script -qec true /dev/null > /dev/null 2>&1; then
  fault_rules '[{"path": "/manifests/", "action": "status", "status": 503, "times": 1}]'
  script -qec "\"$OPM\" ${PULL[*]} --labels $FAULT/ops/etcd:v1 > /dev/null" /dev/null > "$WORK/retry.tty" 2>&1 || true
  check "a retry is announced on a terminal" \
    grep -q "level=info msg=\"retrying $FAULT in 0.[0-9] s (attempt 2 of 5): HTTP 503\"" "$WORK/retry.tty"
  fault_rules '[{"path": "/manifests/", "action": "status", "status": 503, "times": 1}]'
  expect_ok "a retried pull to a file" "${PULL[@]}" --labels "$FAULT/ops/etcd:v1"
  check "no retry line when stderr is no terminal" test "$(grep -c retrying "$WORK/err")" = 0
fi

fault_rules '[]'
rm -rf "$WORK/u-render"
expect_ok "labels then unpack, as render does" "${PULL[@]}" --labels --unpack "$WORK/u-render" "$FAULT/ops/etcd:v1"
check "the tag is resolved once" test "$(count GET /manifests/)" = 1
check "each blob is fetched once" test "$(count GET /blobs/)" = 2
check "labels printed before unpacking" out_has '{"ok":"yes"}'

fault_rules '[{"path": "/manifests/", "action": "status", "status": 429, "headers": {"Retry-After": "1"}}]'
start_ms=$(date +%s%N)
expect_ok "429 honours Retry-After" "${PULL[@]}" --labels "$FAULT/ops/etcd:v1"
check "waited about a second" test $(( ($(date +%s%N) - start_ms) / 1000000 )) -ge 900

fault_rules '[{"path": "/manifests/", "action": "status", "status": 429, "times": -1, "headers": {"Retry-After": "3600"}}]'
start_ms=$(date +%s%N)
expect_fail "a Retry-After beyond the bound gives up at once, saying what was asked" \
  "the registry answered 429 and asked to wait 3600 s before trying again" "${PULL[@]}" --labels "$FAULT/ops/etcd:v1"
check "no second manifest request" test "$(count GET /manifests/)" = 1
# At once: far short of the hour asked for; the bound leaves room for a busy machine's start-up.
check "gave up at once, well short of the wait asked for" \
  test $(( ($(date +%s%N) - start_ms) / 1000000 )) -lt 5000

fault_rules '[{"path": "/manifests/", "action": "status", "status": 500, "times": -1}]'
expect_fail "a persistent 500 gives up, naming the attempts" "UNAVAILABLE: injected fault (after 3 attempts)" "${PULL[@]}" --max-attempts 3 "$FAULT/ops/etcd:v1"
check "three attempts, no more" test "$(count GET /manifests/)" = 3

fault_rules '[{"path": "/manifests/", "action": "status", "status": 404, "times": -1, "body": "{\"errors\":[{\"code\":\"MANIFEST_UNKNOWN\",\"message\":\"manifest unknown\"}]}"}]'
expect_fail "404 is not retried" "MANIFEST_UNKNOWN: manifest unknown" "${PULL[@]}" "$FAULT/ops/etcd:v1"
check "one manifest request" test "$(count GET /manifests/)" = 1

fault_rules '[{"path": "/blobs/sha256:", "action": "reset"}]'
expect_ok "a connection reset is retried" "${PULL[@]}" "$FAULT/ops/etcd:v1"

fault_rules "[{\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"drop\", \"after_bytes\": 1048576}]"
rm -rf "$WORK/u"
expect_ok "a broken blob download is resumed" "${PULL[@]}" --unpack "$WORK/u" "$FAULT/ops/big:v1"
check "resumed with a Range request" test "$(count GET "/blobs/$LAYER" ranged=1)" = 1
check "resumed blob intact" cmp -s "$WORK/big/blob.bin" "$WORK/u/blob.bin"

fault_rules "[{\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"drop\", \"after_bytes\": 1048576},
              {\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"ignore_range\"}]"
rm -rf "$WORK/u"
expect_ok "a registry that ignores Range restarts from zero" "${PULL[@]}" --unpack "$WORK/u" "$FAULT/ops/big:v1"
check "restarted blob intact" cmp -s "$WORK/big/blob.bin" "$WORK/u/blob.bin"

fault_rules "[{\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"stall\", \"after_bytes\": 0, \"seconds\": 20}]"
expect_ok "a stalled transfer is abandoned and retried" "${PULL[@]}" --stall-seconds 1 "$FAULT/ops/big:v1"

fault_rules "[{\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"corrupt\"}]"
expect_ok "a blob corrupted once is fetched again" "${PULL[@]}" "$FAULT/ops/big:v1"
check "fetched twice" test "$(count GET "/blobs/$LAYER")" = 2

CACHE=$WORK/cache-corrupt
fault_rules "[{\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"corrupt\", \"times\": -1}]"
expect_fail "a blob corrupted every time is refused" "digest mismatch for $LAYER: got sha256:" \
  __pull --use-http --retry-delay-ms 50 --cache-dir "$CACHE" --unpack "$WORK/u-corrupt" "$FAULT/ops/big:v1"
check "nothing unpacked" test ! -e "$WORK/u-corrupt"
check "the corrupt blob is not in the cache" test ! -e "$CACHE/blobs/sha256/${LAYER#sha256:}"
check "no ingest files left" test -z "$(find "$CACHE/ingest" -type f ! -name '*.lock')"

fault_rules '[{"path": "/manifests/", "action": "rewrite", "headers": {"Content-Type": "application/vnd.docker.distribution.manifest.v1+prettyjws"}}]'
expect_fail "schema 1 is refused" "specified image is a docker schema v1 manifest, which is not supported" \
  "${PULL[@]}" "$FAULT/ops/etcd:v1"

FAULT_PORT=${FAULT##*:}
fault_rules "[{\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"redirect\", \"times\": -1, \"location\": \"http://127.0.0.1:$FAULT_PORT/v2/ops/big/blobs/$LAYER\"}]"
expect_fail "a redirect loop says so" "stopped after 10 redirects" "${PULL[@]}" "$FAULT/ops/big:v1"
check "eleven requests, no more" test "$(count GET "/blobs/$LAYER")" = 11

fault_rules "[{\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"redirect\", \"location\": \"http://localhost:$FAULT_PORT/v2/ops/big/blobs/$LAYER\"}]"
expect_ok "a redirect to another host is followed" "${PULL[@]}" "$FAULT/ops/big:v1"
check "the redirected request went to the other host" test "$(count GET "/blobs/$LAYER" host=localhost:$FAULT_PORT)" = 1

# Credentials must not follow a redirect to another host: a token registry behind the proxy.
start_token_server tokens --user alice:wonderland --anonymous-pull
start_registry token "$(token_yaml "http://$TOKEN_SERVER/token")"
TOKEN=$REG
push_image "http://$TOKEN" ops/big v1 --compression none --files "$WORK/big" --user alice:wonderland > /dev/null
start_fault_proxy "$TOKEN"
FAULT_PORT=${FAULT##*:}
fault_rules "[{\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"redirect\", \"location\": \"http://localhost:$FAULT_PORT/v2/ops/big/blobs/$LAYER\"}]"
run_opm "${PULL[@]}" "$FAULT/ops/big:v1"
check "the first blob request carried the token" test "$(count GET "/blobs/$LAYER" host=$FAULT auth=True)" -ge 1
check "the redirected request carried no Authorization" test "$(count GET "/blobs/$LAYER" host=localhost:$FAULT_PORT auth=True)" = 0

# SIGINT during a stalled download: the process stops promptly and leaves nothing behind.
fault_rules "[{\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"stall\", \"after_bytes\": 65536, \"seconds\": 30}]"
# A background job of a script starts with SIGINT ignored (and opm keeps it so, as
# upstream): give opm the default back, as an interactive shell would.
env --default-signal=INT "$OPM" __pull --use-http --no-cache --unpack "$WORK/u-interrupted" "$FAULT/ops/big:v1" > /dev/null 2>&1 &
OPM_PID=$!
sleep 1.5
started=$(date +%s)
kill -INT "$OPM_PID"
RC=0
wait "$OPM_PID" || RC=$?
check "SIGINT ends the pull" test "$RC" = 130
check "SIGINT ends it promptly" test $(( $(date +%s) - started )) -le 3
check "SIGINT leaves no temporary cache" tmp_empty
check "SIGINT leaves no partial tree" test -z "$(find "$WORK" -maxdepth 1 -name 'u-interrupted*')"

# The same for render, with its private cache and unpack directories.
fault_rules "[{\"path\": \"/blobs/$LAYER\", \"method\": \"GET\", \"action\": \"stall\", \"after_bytes\": 65536, \"seconds\": 30}]"
OPM_NO_CACHE=1 env --default-signal=INT "$OPM" render --use-http "$FAULT/ops/big:v1" "$FAULT/ops/big:v1" > "$WORK/render-int.out" 2> "$WORK/render-int.err" &
OPM_PID=$!
sleep 1.5
started=$(date +%s)
kill -INT "$OPM_PID" || cat "$WORK/render-int.err"
RC=0
wait "$OPM_PID" || RC=$?
check "SIGINT ends a render" test "$RC" = 130
check "SIGINT ends the render promptly" test $(( $(date +%s) - started )) -le 3
check "SIGINT leaves no temporary directory after a render" tmp_empty
check "an interrupted render prints no catalog" test ! -s "$WORK/render-int.out"

DEAD=127.0.0.1:$(free_port)
expect_fail "a dead registry is named" "pinging container registry $DEAD" "${PULL[@]}" --max-attempts 2 "$DEAD/ops/etcd:v1"

# A refused connection is not retried: render fails at once, not after five backoffs
# (which would wait 1 + 2 + 4 + 8 s, less a tenth, and name the attempts made). The bound on
# time is loose because a sanitised build on a busy machine starts slowly.
started_ms=$(date +%s%N)
RC=0
"$OPM" render --use-http "$DEAD/ops/etcd:v1" > /dev/null 2> "$WORK/refused.err" || RC=$?
check "a refused connection fails render" test "$RC" = 1
check "a refused connection fails well before a single backoff series" \
  test $(( ($(date +%s%N) - started_ms) / 1000000 )) -lt 6000
check "a refused connection names no attempts" test "$(grep -c attempts "$WORK/refused.err")" = 0
check "a refused connection is said" grep -q "connect: connection refused\|Connection refused\|Couldn't connect" "$WORK/refused.err"


check "no temporary files left after failures" tmp_empty
finish
