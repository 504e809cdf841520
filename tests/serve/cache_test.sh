#!/usr/bin/env bash
# The serve cache (--cache-dir): upstream's json layout and digest, so that a cache written by
# one implementation is served by the other; stale, absent, tampered and unexpected caches.
source "$OPM_TESTS/serve/lib/common.bash"

# Modes are part of the digest: give the catalog copy fixed ones.
catalog() { # DIR
  cp -r "$DATA/catalog" "$1"
  find "$1" -type d -exec chmod 0755 {} +
  find "$1" -type f -exec chmod 0644 {} +
}
catalog cat

# expect_fatal MESSAGE ARGS...: opm serve fails with exactly that logrus fatal line.
expect_fatal() {
  local message=$1
  shift
  run_opm serve "$@" -t /dev/null
  expect_rc 1
  expect_err_line "time=\"T\" level=fatal msg=\"$message\""
}

# Build: exit 0, nothing printed, upstream's files and modes.
run_opm serve cat --cache-dir built --cache-only -t /dev/null
expect_rc 0
[ -s out ] || [ -s err ] && fail "unexpected output: $(cat out err)"
grep -qE '^[0-9a-f]{16}$' <(cat built/digest; echo) || fail "digest: $(cat built/digest)"
expect_eq "cache modes" "750 640 640 750" \
  "$(stat -c %a built/cache built/cache/packages.json built/digest built | tr "\n" " " | sed "s/ $//")"
expect_eq "bundle files" "11" "$(find built/cache -maxdepth 1 -name '*.json' | wc -l)"
expect_eq "other objects" "1" "$(find built/cache/metas -type f | wc -l)"

# Serving the cache (enforced by default with --cache-dir) answers as the catalog does.
start_server cat --cache-dir built -t /dev/null
run_calls "127.0.0.1:$PORT" "$DATA/calls.txt" >answers.txt
expect_file answers.txt "$DATA/answers.txt"
stop_server
expect_rc 0

# A cache upstream wrote for the same catalog is served, enforcing.
cp -r "$DATA/upstream-cache" upstream
# git keeps no modes but 644 and 755: give the copy the ones upstream wrote it with.
find upstream -type d -exec chmod 0750 {} +
find upstream -type f -exec chmod 0640 {} +
start_server cat --cache-dir upstream -t /dev/null
call api.Registry/GetBundleForChannel '{"pkgName":"etcd","channelName":"stable"}' >head.txt
grep -q '"csvName":"etcd.v0.9.4"' head.txt || fail "bundle from upstream's cache: $(cat head.txt)"
stop_server
expect_rc 0
run_opm serve cat --cache-dir upstream --cache-only --cache-enforce-integrity -t /dev/null
expect_rc 0

# Stale: a chmod of a catalog file changes the digest.
digest=$(cat built/digest)
cp -r built stale
chmod 0600 cat/etcd/catalog.json
expect_fatal "cache requires rebuild: cache reports digest as \\\"$digest\\\", but computed digest is \\\"$(
  cp -r built probe && "$OPM" serve cat --cache-dir probe --cache-only -t /dev/null && cat probe/digest)\\\"" \
  cat --cache-dir stale
# ... without enforcement it is rebuilt in place and served.
run_opm serve cat --cache-dir stale --cache-only -t /dev/null
expect_rc 0
[ "$(cat stale/digest)" != "$digest" ] || fail "stale cache not rebuilt"
run_opm serve cat --cache-dir stale --cache-only --cache-enforce-integrity -t /dev/null
expect_rc 0
chmod 0644 cat/etcd/catalog.json

# Tampered: an edited bundle file no longer matches the digest.
cp -r built tampered
sed -i 's/quay.io/evil.io/' tampered/cache/etcd_stable_etcd.v0.9.4.json
run_opm serve cat --cache-dir tampered --cache-only --cache-enforce-integrity -t /dev/null
expect_rc 1
err_has 'cache requires rebuild' || fail "tampered cache accepted: $(cat err)"
start_server cat --cache-dir tampered --cache-enforce-integrity=false -t /dev/null
call api.Registry/GetBundleForChannel '{"pkgName":"etcd","channelName":"stable"}' >head.txt
grep -q 'evil.io' head.txt && fail "tampered bundle served"
stop_server
expect_eq "rebuilt digest" "$digest" "$(cat tampered/digest)"

# Rebuilding empties cache/ and replaces the digest, as latest does; other files in the
# directory stay.
cp -r built foreign
printf 0000000000000000 >foreign/digest
echo notes >foreign/README
mkdir foreign/keep && touch foreign/keep/x foreign/cache/stray.json
run_opm serve cat --cache-dir foreign --cache-only -t /dev/null
expect_rc 0
[ -f foreign/README ] && [ -f foreign/keep/x ] || fail "files beside the cache removed"
[ -e foreign/cache/stray.json ] && fail "stale file left in cache/"
expect_eq "rebuilt beside other files" "$digest" "$(cat foreign/digest)"

# Absent: nothing to verify.
expect_fatal "read existing cache digest: open absent/digest: no such file or directory" \
  cat --cache-dir absent
mkdir empty
expect_fatal "read existing cache digest: open empty/digest: no such file or directory" \
  cat --cache-dir empty
# Unexpected contents are never deleted.
mkdir other && touch other/keep
expect_fatal "cache directory has unexpected contents" cat --cache-dir other --cache-only
[ -f other/keep ] || fail "unexpected contents removed"
expect_fatal "--cache-dir must be specified with --cache-enforce-integrity" \
  cat --cache-enforce-integrity
echo ok
