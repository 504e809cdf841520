#!/usr/bin/env bash
# opm alpha bundle against real registries: build -b none pushes the bundle image, unpack
# gives the directory back (plain HTTP, and TLS trusted through --root-ca), validate passes,
# and render of the pushed image equals render of the directory.
source "$(dirname "$0")/harness.sh"

start_registry plain
PLAIN=$REG
make_pki
start_registry tls "$(tls_yaml)"
TLS=$REG

cp -r "$HARNESS_DIR/../data/cli/bundle_valid" "$WORK/b"
cd "$WORK" || exit 1
args=(-d b/manifests -p gizmo -c stable -e stable)

SOURCE_DATE_EPOCH=1700000000 expect_ok "build -b none pushes to a registry" \
  alpha bundle build "${args[@]}" -t "$PLAIN/ops/gizmo-bundle:v1" -b none --use-http
check "the digest is printed" grep -qx 'sha256:[0-9a-f]\{64\}' "$WORK/out"
D1=$(cat "$WORK/out")
expect_ok "the pushed image pulls" __pull --use-http "$PLAIN/ops/gizmo-bundle:v1"
check "the registry has that digest" out_has "$D1"

expect_ok "unpack over plain HTTP" alpha bundle unpack "$PLAIN/ops/gizmo-bundle:v1" --use-http -o "$WORK/u1"
check "unpack gives the bundle back" diff -r "$WORK/b" "$WORK/u1"
expect_ok "validate passes" alpha bundle validate -t "$PLAIN/ops/gizmo-bundle:v1" -b none --use-http
check "validate says so" err_has "All validation tests have been completed successfully"

expect_ok "render the image" render "$PLAIN/ops/gizmo-bundle:v1" --use-http
cp "$WORK/out" "$WORK/from_image.json"
expect_ok "render the directory" render "$WORK/b" --alpha-image-ref-template "$PLAIN/ops/gizmo-bundle:v1"
check "both renders are equal" cmp -s "$WORK/out" "$WORK/from_image.json"

# TLS: a private CA, trusted for one run with --root-ca.
SOURCE_DATE_EPOCH=1700000000 SSL_CERT_FILE=$WORK/pki/ca.crt expect_ok "build -b none pushes over TLS" \
  alpha bundle build "${args[@]}" -t "$TLS/ops/gizmo-bundle:v1" -b none
check "the same image over TLS" out_has "$D1"
expect_fail "unpack without the CA" "certificate" \
  alpha bundle unpack "$TLS/ops/gizmo-bundle:v1" -o "$WORK/u2"
check "nothing unpacked without the CA" test ! -e "$WORK/u2"
expect_ok "unpack with --root-ca" alpha bundle unpack "$TLS/ops/gizmo-bundle:v1" -c "$WORK/pki/ca.crt" -o "$WORK/u2"
check "unpack over TLS gives the bundle back" diff -r "$WORK/b" "$WORK/u2"
expect_fail "a root CA file without certificates" "failed to fetch root CA from $WORK/b/metadata/annotations.yaml" \
  alpha bundle unpack "$TLS/ops/gizmo-bundle:v1" -c "$WORK/b/metadata/annotations.yaml" -o "$WORK/u3"
expect_fail "--use-http with --skip-tls-verify" "invalid flag combination: --use-http and --skip-tls-verify cannot both be true" \
  alpha bundle unpack "$TLS/ops/gizmo-bundle:v1" --use-http --skip-tls-verify -o "$WORK/u3"
expect_fail "a tag the registry lacks" "MANIFEST_UNKNOWN" \
  alpha bundle unpack "$PLAIN/ops/gizmo-bundle:nope" --use-http -o "$WORK/u3"
check "nothing written for a failed unpack" test ! -e "$WORK/u3"
finish
