#!/usr/bin/env bash
# opm alpha cache info|prune: what the cache holds, entries removed by their last use or all
# of them, a removed entry read again as a miss, and pruning that waits for the opm processes
# using the cache while those that start meanwhile wait for it.
source "$OPM_TESTS/cli/lib/common.bash"

bundle_layouts "$OPM_TESTS/data/bundles" "$WORK/layouts" # OLM_CACHE_DIR=$WORK/cache
C=$WORK/cache/images
NOW=$(date +%s)
ago() { touch -d "@$((NOW - $1 * 86400))" "${@:2}"; }
utc() { date -u -d "@$((NOW - $1 * 86400))" +%Y-%m-%dT%H:%M:%SZ; }
bytes() { find "$@" -type f -printf '%s\n' | awk '{ n += $1 } END { print n + 0 }'; }
size() { awk -v n="$1" 'BEGIN { if (n < 1024) printf "%d B (%d bytes)", n, n;
  else printf "%.1f KiB (%d bytes)", n / 1024, n }'; }

# A rendered bundle, as opm keeps it; blobs, a download left behind and catalog layers laid out
# as the blob store and catalog builds keep them.
"$OPM" render "oci:$WORK/layouts/full" >first.json || fail "render failed"
render_entry=$(find "$C/renders" -name '*.entry')
[ -f "$render_entry" ] || fail "no rendered bundle in the cache"
mkdir -p "$C/blobs/sha256" "$C/ingest" "$C/catalog-layers/k1"
old_hex=$(printf 'old manifest' | sha256sum | cut -d' ' -f1)
new_hex=$(printf 'new manifest' | sha256sum | cut -d' ' -f1)
printf 'old manifest' >"$C/blobs/sha256/$old_hex"
printf 'new manifest' >"$C/blobs/sha256/$new_hex"
printf '{"schemaVersion":2,"manifests":[{"digest":"sha256:%s","size":12},{"digest":"sha256:%s","size":12}]}' \
  "$old_hex" "$new_hex" >"$C/index.json"
head -c 3000 /dev/zero >"$C/ingest/$old_hex.123.abc"
head -c 2000 /dev/zero >"$C/catalog-layers/k1/configs.tar.gz"
echo '{}' >"$C/catalog-layers/k1/layers.json"
ago 40 "$C/blobs/sha256/$old_hex"
ago 10 "$render_entry"
ago 8 "$C/catalog-layers/k1/layers.json"
ago 2 "$C/ingest/$old_hex.123.abc"

run_opm alpha cache info
expect_rc 0
expect_text "$WORK/out" "directory: $C
size: $(size "$(bytes "$C")")
entries: 5
oldest: 40d0h (last used $(utc 40))
"

# Older than 9 days: the old blob and the rendered bundle; the index forgets the old manifest.
removed=$(bytes "$C/blobs/sha256/$old_hex" "$render_entry")
run_opm alpha cache prune --older-than 9d
expect_rc 0
expect_text "$WORK/out" "removed: 2 entries, $(size "$removed")
kept: 3 entries, $(size "$(bytes "$C")")
"
if [ -e "$C/blobs/sha256/$old_hex" ] || [ -e "$render_entry" ]; then fail "old entries kept"; fi
if [ ! -e "$C/blobs/sha256/$new_hex" ] || [ ! -e "$C/catalog-layers/k1" ]; then
  fail "recent entries removed"
fi
grep -q "$old_hex" "$C/index.json" && fail "index.json still names the removed manifest"
grep -q "$new_hex" "$C/index.json" || fail "index.json lost the kept manifest"
[ -z "$(find "$C" -name '.pruning-*')" ] || fail "pruned entries left behind"

# A removed entry is a miss: the bundle is rendered again, the same, and kept again.
"$OPM" render "oci:$WORK/layouts/full" >again.json || fail "render after prune failed"
expect_file again.json first.json
[ -f "$render_entry" ] || fail "the bundle was not kept again"

# Go durations too; the catalog layers are used as old as their layers.json.
run_opm alpha cache prune --older-than 168h
expect_rc 0
[ -e "$C/catalog-layers/k1" ] && fail "unused catalog layers kept"
run_opm alpha cache prune --older-than 1h30m
expect_rc 0
expect_eq "the download left behind removed" "removed: 1 entry, 2.9 KiB (3000 bytes)" "$(head -n 1 "$WORK/out")"

# Pruning waits for an opm using the cache (here one holding it as opm does, with flock),
# and removes nothing before it is done.
(flock -s "$C/use.lock" sh -c "sleep 1; test -f '$render_entry' && echo present >'$WORK/seen'") &
holder=$!
until ! flock -n -x "$C/use.lock" true; do sleep 0.05; done
run_opm alpha cache prune --all
expect_rc 0
wait "$holder"
expect_eq "the entry there while in use" present "$(cat "$WORK/seen")"
expect_err_line "time=\"T\" level=info msg=\"waiting for other opm processes using $C to finish\""
expect_eq "every entry removed" "removed: 2 entries" "$(head -n 1 "$WORK/out" | cut -d, -f1)"
run_opm alpha cache info
expect_eq "nothing left" "entries: 0
oldest: none" "$(tail -n 2 "$WORK/out")"

# An opm that starts while the cache is pruned (held exclusively) waits for the pruning.
(flock -x "$C/use.lock" sh -c "sleep 1; date +%s%N >'$WORK/released'") &
pruner=$!
until ! flock -n -s "$C/use.lock" true; do sleep 0.05; done
"$OPM" render "oci:$WORK/layouts/full" >during.json || fail "render during prune failed"
date +%s%N >"$WORK/rendered"
wait "$pruner"
[ "$(cat "$WORK/rendered")" -gt "$(cat "$WORK/released")" ] || fail "render did not wait for the pruning"
expect_file during.json first.json

# Usage errors, and a cache that cannot be.
run_opm alpha cache prune
expect_rc 1
expect_eq "neither flag" "Error: at least one of the flags in the group [older-than all] is required" "$(head -n 1 "$WORK/err")"
run_opm alpha cache prune --all --older-than 1h
expect_rc 1
expect_eq "both flags" "Error: if any flags in the group [older-than all] are set none of the others can be; [all older-than] were all set" "$(head -n 1 "$WORK/err")"
run_opm alpha cache prune --older-than 3days
expect_rc 1
expect_eq "not a duration" 'Error: invalid argument "3days" for "--older-than" flag: not a duration such as 720h, 90m or 30d' "$(head -n 1 "$WORK/err")"
RC=0
env -i "$OPM" alpha cache info >"$WORK/out" 2>"$WORK/err" || RC=$?
expect_rc 1
expect_err_line 'time="T" level=fatal msg="no cache directory: none of OLM_CACHE_DIR, XDG_CACHE_HOME and HOME is set"'
mkdir -p "$WORK/file" && touch "$WORK/file/images"
OLM_CACHE_DIR=$WORK/file run_opm alpha cache info
expect_rc 1
expect_err_line "time=\"T\" level=fatal msg=\"$WORK/file/images is not a directory\""
exit 0
