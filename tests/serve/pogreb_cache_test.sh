#!/usr/bin/env bash
# Latest upstream's pogreb.v1 serve cache (<D>/pogreb.v1/{digest,db/}), as pogreb's own library
# wrote it for the fixture catalog (tests/serve/fixtures/pogreb): served, enforcing, with the
# answers of this implementation's json cache of the same catalog, and left as it was. A
# missing or wrong digest and a damaged database fail with latest's messages, naming the file;
# without enforcement such a cache is replaced by the json cache. Nothing is read without end
# and nothing waits on a FIFO (each failing run is cut after a few seconds).
source "$OPM_TESTS/serve/lib/common.bash"
FIXTURE="$OPM_TESTS/serve/fixtures/pogreb"
cp -r "$FIXTURE/catalog" cat

answers() { # OUT
  run_calls "127.0.0.1:$PORT" "$FIXTURE/calls.txt" >"$1"
  CALL_METADATA="x-acknowledge-experimental: true" \
    run_calls "127.0.0.1:$PORT" "$FIXTURE/experimental_calls.txt" >>"$1"
}

# pogreb NAME [SETUP]: a copy of the fixture's cache in NAME, changed by SETUP (run inside
# NAME/pogreb.v1/db).
pogreb() {
  rm -rf "$1"
  cp -r "$FIXTURE/cache" "$1"
  if [ -n "${2:-}" ]; then
    (cd "$1/pogreb.v1/db" && eval "$2") || fail "setup of $1"
  fi
}

# serve_bounded ARGS...: opm serve on the catalog, cut after 4 seconds (exit 137).
serve_bounded() {
  RC=0
  timeout -s KILL 4 "$OPM" serve cat "$@" -t /dev/null >"$WORK/out" 2>"$WORK/err" || RC=$?
}

# expect_refused NAME MESSAGE: enforcing, opm serve on NAME fails with MESSAGE (@D@ stands for
# the cache directory).
expect_refused() {
  serve_bounded --cache-dir "$WORK/$1" -p 0
  expect_rc 1
  expect_err_line "time=\"T\" level=fatal msg=\"${2//@D@/$WORK/$1}\""
}

# expect_replaced NAME: without enforcement, the cache in NAME becomes the json cache of the
# catalog, which then checks out.
expect_replaced() {
  serve_bounded --cache-dir "$WORK/$1" --cache-only
  expect_rc 0
  expect_eq "$1: entries" "cache digest" "$(ls "$1" | tr '\n' ' ' | sed 's/ $//')"
  cmp -s "$1/digest" json/digest || fail "$1: the json digest differs"
  serve_bounded --cache-dir "$WORK/$1" --cache-only --cache-enforce-integrity
  expect_rc 0
}

# The answers of the json cache.
run_opm serve cat --cache-dir json --cache-only -t /dev/null
expect_rc 0
start_server cat --cache-dir json -t /dev/null
answers json.txt
stop_server
expect_rc 0
grep -q '"note":"kept for the experimental rpc"' json.txt || fail "no custom object in json.txt"

# The pogreb cache answers every rpc as the json cache does, and is not written to.
pogreb good
start_server cat --cache-dir good --cache-enforce-integrity -t /dev/null
answers pogreb.txt
stop_server
expect_rc 0
expect_file pogreb.txt json.txt
diff -r good "$FIXTURE/cache" >/dev/null || fail "the pogreb cache was changed"
run_opm serve cat --cache-dir good --cache-only --cache-enforce-integrity -t /dev/null
expect_rc 0
run_opm serve cat --cache-dir good --cache-only -t /dev/null
expect_rc 0
[ -d good/pogreb.v1 ] && [ ! -e good/cache ] || fail "a valid pogreb cache was rebuilt"

# A pogreb.v1 directory decides the backend even beside a json cache's entries: enforcing, a
# json digest that matches nothing does not matter.
pogreb beside
cp -r json/cache beside/cache
printf '0000000000000000' >beside/digest
run_opm serve cat --cache-dir beside --cache-only --cache-enforce-integrity -t /dev/null
expect_rc 0

# Digest missing, wrong, or not matching an edited catalog.
pogreb no-digest "rm ../digest"
expect_refused no-digest \
  "integrity check failed: read existing cache digest: open @D@/pogreb.v1/digest: no such file or directory"
expect_replaced no-digest
pogreb wrong-digest "printf 0123456789abcdef >../digest"
expect_refused wrong-digest \
  "integrity check failed: cache requires rebuild: cache reports digest as \\\"0123456789abcdef\\\", but computed digest is \\\"$(cat "$FIXTURE/cache/pogreb.v1/digest")\\\""
expect_replaced wrong-digest
pogreb fifo-digest "rm ../digest && mkfifo ../digest"
expect_refused fifo-digest \
  "integrity check failed: read existing cache digest: @D@/pogreb.v1/digest is not a regular file"
expect_replaced fifo-digest

# A damaged database.
pogreb bad-record "printf X | dd of=00000-1.psg bs=1 seek=520 conv=notrunc status=none"
expect_refused bad-record \
  "open cache: @D@/pogreb.v1/db/00000-1.psg: record at offset 512: checksum mismatch"
expect_replaced bad-record
pogreb cut-segment "truncate -s 515 00000-1.psg"
expect_refused cut-segment "open cache: @D@/pogreb.v1/db/00000-1.psg: record at offset 512: cut short"
expect_replaced cut-segment
pogreb no-header "printf X | dd of=main.pix bs=1 seek=0 conv=notrunc status=none"
expect_refused no-header \
  "open cache: @D@/pogreb.v1/db/main.pix: not a pogreb file (no pogreb header)"
expect_replaced no-header
pogreb lost-slot "dd if=/dev/zero of=main.pix bs=1 seek=512 count=16 conv=notrunc status=none"
expect_refused lost-slot \
  "open cache: @D@/pogreb.v1/db/main.pix: the index does not match the segments (0 slots for 7 live records)"
expect_replaced lost-slot
pogreb linked-segment "rm 00000-1.psg && ln -s /dev/zero 00000-1.psg"
expect_refused linked-segment "open cache: @D@/pogreb.v1/db/00000-1.psg is not a regular file"
expect_replaced linked-segment
pogreb linked-db "cd .. && mv db elsewhere && ln -s elsewhere db"
expect_refused linked-db "open cache: @D@/pogreb.v1/db is not a directory"
expect_replaced linked-db
pogreb fifo-segment "rm 00000-1.psg && mkfifo 00000-1.psg"
expect_refused fifo-segment "open cache: @D@/pogreb.v1/db/00000-1.psg is not a regular file"
expect_replaced fifo-segment
total=$(find cat -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
pogreb huge-segment "truncate -s 20G 00000-1.psg"
expect_refused huge-segment \
  "open cache: @D@/pogreb.v1/db/00000-1.psg is larger than a cache of this catalog can hold (21474836480 bytes, at most $(((total * 32 + 1048576) * 4)))"
expect_replaced huge-segment

# Stale after a catalog edit: enforcing fails; otherwise the server rebuilds and answers as
# before.
cp -r cat edited
sed -i 's/kept for the experimental rpc/edited/' edited/etcd/catalog.json
pogreb stale
RC=0
"$OPM" serve edited --cache-dir "$WORK/stale" -p 0 -t /dev/null >out 2>err || RC=$?
expect_rc 1
normalized_err | grep -qxE "time=\"T\" level=fatal msg=\"integrity check failed: cache requires rebuild: cache reports digest as \\\\\"$(cat "$FIXTURE/cache/pogreb.v1/digest")\\\\\", but computed digest is \\\\\"[0-9a-f]{16}\\\\\"\"" ||
  fail "stale: $(cat err)"
start_server edited --cache-dir stale --cache-enforce-integrity=false -t /dev/null
CALL_METADATA="x-acknowledge-experimental: true" \
  call api.ExperimentalRegistry/ExperimentalListPackageCustomSchemas \
  '{"schema":"example.notes","packageName":"etcd"}' >edited.txt
stop_server
expect_rc 0
grep -q '"note":"edited"' edited.txt || fail "stale: $(cat edited.txt)"
[ ! -e stale/pogreb.v1 ] && [ -f stale/digest ] || fail "stale: $(ls stale)"

echo ok
