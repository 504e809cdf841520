#!/usr/bin/env bash
# Pulls from a plain-HTTP registry: media types, compressions, indexes, platforms,
# digests, the cache, and the errors a user meets first.
source "$(dirname "$0")/harness.sh"

start_registry plain
PLAIN=$REG
B=$WORK/bundle
make_bundle_dir "$B" etcd
R=http://$PLAIN

read -r D_OCI _ < <(push_image "$R" ops/etcd v1 --files "$B" --label operators.operatorframework.io.bundle.package.v1=etcd --label extra=yes)
push_image "$R" ops/docker v1 --docker --files "$B" --label kind=docker > /dev/null
push_image "$R" ops/zstd v1 --compression zstd --files "$B" > /dev/null
push_image "$R" ops/plain v1 --compression none --files "$B" > /dev/null
read -r D_AMD S_AMD T_AMD < <(push_image "$R" ops/multi amd64 --files "$B" --arch amd64 --label marker=amd)
read -r D_ARM S_ARM T_ARM < <(push_image "$R" ops/multi arm64 --files "$B" --arch arm64 --variant v8 --label marker=arm)
read -r D_IDX S_IDX T_IDX < <("${IMAGETOOL[@]}" index "$R" ops/multi v1 --entry "$D_ARM,$S_ARM,$T_ARM,linux/arm64/v8" --entry "$D_AMD,$S_AMD,$T_AMD,linux/amd64")
"${IMAGETOOL[@]}" index "$R" ops/multi nested --entry "$D_IDX,$S_IDX,$T_IDX,linux/amd64" > /dev/null
"${IMAGETOOL[@]}" index "$R" ops/multi v1-docker --docker --entry "$D_AMD,$S_AMD,$T_AMD,linux/amd64" --entry "$D_ARM,$S_ARM,$T_ARM,linux/arm64/v8" > /dev/null

expect_ok "labels of an OCI image" __pull --use-http --labels "$PLAIN/ops/etcd:v1"
check "labels printed as JSON" out_has "$PLAIN/ops/etcd:v1 {\"extra\":\"yes\",\"operators.operatorframework.io.bundle.package.v1\":\"etcd\"}"

expect_ok "pull reports the manifest digest" __pull --use-http "$PLAIN/ops/etcd:v1"
check "digest printed" out_has "$PLAIN/ops/etcd:v1 $D_OCI $D_OCI 1"

for repo in etcd docker zstd plain; do
  rm -rf "$WORK/u-$repo"
  expect_ok "unpack $repo layer" __pull --use-http --unpack "$WORK/u-$repo" "$PLAIN/ops/$repo:v1"
  check "$repo tree has the bundle files" cmp -s "$B/manifests/csv.yaml" "$WORK/u-$repo/manifests/csv.yaml"
done
expect_ok "docker schema 2 labels" __pull --use-http --labels "$PLAIN/ops/docker:v1"
check "docker config labels" out_has '{"kind":"docker"}'

expect_ok "pull by digest" __pull --use-http "$PLAIN/ops/etcd@$D_OCI"
expect_ok "index picks amd64 though arm64 is first" __pull --use-http --labels "$PLAIN/ops/multi:v1"
check "amd64 child chosen" out_has '{"marker":"amd"}'
expect_ok "--platform picks arm64" __pull --use-http --platform linux/arm64 --labels "$PLAIN/ops/multi:v1"
check "arm64 child chosen" out_has '{"marker":"arm"}'
expect_ok "manifest list with --platform" __pull --use-http --platform linux/arm64/v8 --labels "$PLAIN/ops/multi:v1-docker"
check "arm64 child of the list chosen" out_has '{"marker":"arm"}'
expect_fail "a platform the index lacks" 'no image found in image index for architecture "s390x", variant "", OS "linux"' \
  __pull --use-http --platform linux/s390x "$PLAIN/ops/multi:v1"
expect_ok "an index that lists an index resolves" __pull --use-http --labels "$PLAIN/ops/multi:nested"
check "the inner index's amd64 child chosen" out_has '{"marker":"amd"}'
expect_ok "index digest reported" __pull --use-http "$PLAIN/ops/multi:v1"
check "index and child digests" out_has "$D_IDX $D_AMD"

expect_fail "plain registry without --use-http" "http: server gave HTTP response to HTTPS client (use --use-http for a plain-HTTP registry)" \
  __pull "$PLAIN/ops/etcd:v1"
expect_fail "unknown tag" "MANIFEST_UNKNOWN" __pull --use-http "$PLAIN/ops/etcd:nope"
expect_fail "non-canonical reference" 'repository name must be canonical; did you mean "docker.io/library/busybox:1"?' \
  __pull --use-http busybox:1
expect_fail "flag combination" "invalid flag combination: --use-http and --skip-tls-verify cannot both be true" \
  __pull --use-http --skip-tls-verify "$PLAIN/ops/etcd:v1"

# The cache: a second run by digest needs no registry at all.
CACHE=$WORK/blobcache
expect_ok "cold pull into a cache" __pull --use-http --cache-dir "$CACHE" "$PLAIN/ops/etcd:v1" "$PLAIN/ops/multi:v1"
check "cache is an OCI layout" test -f "$CACHE/oci-layout"
check "cache index records the reference" grep -q "$(printf '%s' "$PLAIN/ops/etcd:v1" | od -An -tx1 | tr -d ' \n')" "$CACHE/index.json"
check "cached blobs are read-only" test ! -w "$CACHE/blobs/sha256/${D_OCI#sha256:}" -o "$(id -u)" = 0
# A tag pulled before is asked for conditionally; a moved tag is fetched anew.
expect_ok "warm tag pull" __pull --use-http --debug --cache-dir "$CACHE" "$PLAIN/ops/etcd:v1"
check "an unchanged tag answers 304" err_has "manifests/v1 -> 304"
check "the cached manifest is used" out_has "$D_OCI"
push_image "$R" ops/moving v1 --files "$B" --label v=1 > /dev/null
expect_ok "pull a tag" __pull --use-http --cache-dir "$CACHE" --labels "$PLAIN/ops/moving:v1"
push_image "$R" ops/moving v1 --files "$B" --label v=2 > /dev/null
expect_ok "pull the moved tag" __pull --use-http --debug --cache-dir "$CACHE" --labels "$PLAIN/ops/moving:v1"
check "a moved tag answers 200" err_has "manifests/v1 -> 200"
check "the moved tag's image is pulled" out_has '"v":"2"'

kill "$(awk '$2 == "plain" {print $1}' "$WORK/pids")"
sleep 0.2
expect_ok "digest pull served from the cache offline" __pull --use-http --cache-dir "$CACHE" --max-attempts 1 --labels "$PLAIN/ops/etcd@$D_OCI"
check "offline labels" out_has '"extra":"yes"'
rm -rf "$WORK/u-offline"
expect_ok "offline unpack from the cache" __pull --use-http --cache-dir "$CACHE" --max-attempts 1 --unpack "$WORK/u-offline" "$PLAIN/ops/etcd@$D_OCI"
expect_fail "tag pull needs the registry" "$PLAIN" __pull --use-http --cache-dir "$CACHE" --max-attempts 1 --retry-delay-ms 10 "$PLAIN/ops/etcd:v1"

# Two processes sharing one cache: both succeed and every blob is whole.
start_registry plain2
PLAIN2=$REG
REFS=()
for i in 1 2 3 4 5 6; do
  push_image "http://$PLAIN2" "ops/shared$i" v1 --files "$B" --label n=$i > /dev/null
  REFS+=("$PLAIN2/ops/shared$i:v1")
done
SHARED=$WORK/shared-cache
"$OPM" __pull --use-http --cache-dir "$SHARED" "${REFS[@]}" > "$WORK/p1.out" 2> "$WORK/p1.err" &
P1=$!
"$OPM" __pull --use-http --cache-dir "$SHARED" "${REFS[@]}" > "$WORK/p2.out" 2> "$WORK/p2.err" &
P2=$!
RC1=0
RC2=0
wait "$P1" || RC1=$?
wait "$P2" || RC2=$?
check "two processes share a cache" test "$RC1$RC2" = 00
check "both report every image" test "$(wc -l < "$WORK/p1.out")$(wc -l < "$WORK/p2.out")" = 66
all_blobs_whole() {
  local f
  for f in "$SHARED"/blobs/sha256/*; do
    [ "sha256:$(sha256sum "$f" | cut -d' ' -f1)" = "sha256:$(basename "$f")" ] || return 1
  done
}
check "every cached blob matches its name" all_blobs_whole
check "no ingest files left" test -z "$(find "$SHARED/ingest" -type f ! -name '*.lock')"
check "the cache index lists each reference once" test "$(grep -o 'org.opencontainers.image.ref.name' "$SHARED/index.json" | wc -l)" = 6

check "no temporary files left" tmp_empty
finish
