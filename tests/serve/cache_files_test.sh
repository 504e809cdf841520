#!/usr/bin/env bash
# A cache holding what it cannot hold: a digest or a bundle file that is a link to a device
# that never ends, a FIFO, a file far larger than the catalog could make. Enforcing, opm
# refuses it at once, naming the file; otherwise it rebuilds the cache. Nothing is read
# without end and nothing waits on a FIFO (each run is cut after a few seconds).
source "$OPM_TESTS/serve/lib/common.bash"

cp -r "$DATA/catalog" cat
"$OPM" serve cat --cache-dir built --cache-only -t /dev/null || fail "cache build failed"
bundle=built/cache/etcd_stable_etcd.v0.9.4.json
[ -f "$bundle" ] || fail "no $bundle in $(ls built/cache)"
# The most a bundle file may hold: 32 times the largest catalog file, and a MiB.
limit=$(($(find cat -type f -printf '%s\n' | sort -n | tail -n 1) * 32 + 1048576))

# serve_bounded ARGS...: opm serve, cut after 4 seconds (exit 137).
serve_bounded() {
  RC=0
  timeout -s KILL 4 "$OPM" serve cat "$@" -t /dev/null >"$WORK/out" 2>"$WORK/err" || RC=$?
}

# damaged NAME SETUP: a copy of the built cache in NAME, changed by the SETUP command (run
# inside NAME).
damaged() {
  rm -rf "$1"
  cp -a built "$1"
  (cd "$1" && eval "$2") || fail "setup of $1"
}

# expect_rebuilt NAME SETUP: without enforcement, opm serve rebuilds the damaged cache, which
# then checks out.
expect_rebuilt() {
  local name=$1 setup=$2
  damaged "$name" "$setup"
  serve_bounded --cache-dir "$WORK/$name" --cache-only
  expect_rc 0
  serve_bounded --cache-dir "$WORK/$name" --cache-only --cache-enforce-integrity
  expect_rc 0
  cmp -s "$name/digest" built/digest || fail "$name: rebuilt digest differs"
}

# expect_refused NAME SETUP MESSAGE: enforcing, opm serve fails with MESSAGE (@D@ stands for
# the cache directory); without enforcement it rebuilds the cache.
expect_refused() {
  local name=$1 setup=$2 message=${3//@D@/$WORK/$1}
  damaged "$name" "$setup"
  serve_bounded --cache-dir "$WORK/$name" -p 0
  expect_rc 1
  expect_err_line "time=\"T\" level=fatal msg=\"$message\""
  expect_rebuilt "$name" "$setup"
}

expect_refused zero-digest "rm digest && ln -s /dev/zero digest" \
  "read existing cache digest: @D@/digest is not a regular file"
expect_refused fifo-digest "rm digest && mkfifo digest" \
  "read existing cache digest: @D@/digest is not a regular file"
# A link is not hashed: the digest no longer matches, and the link is never followed.
link_bundle="rm cache/${bundle##*/} && ln -s /dev/zero cache/${bundle##*/}"
damaged zero-bundle "$link_bundle"
serve_bounded --cache-dir "$WORK/zero-bundle" -p 0
expect_rc 1
normalized_err | grep -qxE "time=\"T\" level=fatal msg=\"cache requires rebuild: cache reports digest as \\\\\"$(cat built/digest)\\\\\", but computed digest is \\\\\"[0-9a-f]{16}\\\\\"\"" ||
  fail "zero-bundle: $(cat "$WORK/err")"
expect_rebuilt zero-bundle "$link_bundle"
expect_refused fifo-bundle "rm cache/${bundle##*/} && mkfifo cache/${bundle##*/}" \
  "cache requires rebuild: @D@/cache/${bundle##*/} is not a regular file"
expect_refused fifo-packages "rm cache/packages.json && mkfifo cache/packages.json" \
  "cache requires rebuild: @D@/cache/packages.json is not a regular file"
expect_refused huge-bundle "truncate -s 2G cache/${bundle##*/}" \
  "cache requires rebuild: @D@/cache/${bundle##*/} is larger than a cache of this catalog can hold (2147483648 bytes, at most $limit)"

echo ok
