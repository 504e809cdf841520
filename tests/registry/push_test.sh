#!/usr/bin/env bash
# Pushes with the registry client: monolithic and chunked uploads, re-pushes that send no
# blob twice, cross-repository mounts, retries, uploads broken half-way that leave nothing
# under the tag, digests checked before upload, and push-scoped credentials (Basic, bearer,
# TLS).
source "$(dirname "$0")/harness.sh"

make_pki
start_registry plain
PLAIN=$REG
start_fault_proxy "$PLAIN"
B=$WORK/bundle
make_bundle_dir "$B" etcd
mkdir -p "$WORK/big"
head -c 3000000 /dev/urandom > "$WORK/big/blob.bin"
L=$WORK/layout
"${IMAGETOOL[@]}" layout "$L" v1 --files "$B" --compression none --files "$WORK/big" --label pushed=yes > /dev/null
PUSH=(__push --use-http --retry-delay-ms 50 --chunk-size 1048576)

# requests METHOD PATH_REGEX: how many the proxy saw
requests() {
  fault_log | python3 -c '
import json, re, sys
print(sum(1 for e in json.load(sys.stdin) if e["method"] == sys.argv[1] and re.search(sys.argv[2], e["path"])))' "$@"
}
manifest_of() { # REPO TAG
  python3 "$TOOLS/httpreq.py" GET "http://$PLAIN/v2/$1/manifests/$2" \
    --header "Accept: application/vnd.oci.image.manifest.v1+json" 2> /dev/null
}

# --- upload, chunked and monolithic ---------------------------------------------------------
fault_rules '[]'
expect_ok "push a layout image" "${PUSH[@]}" "oci:$L:v1" "$FAULT/ops/cat:v1"
check "three blobs uploaded, one manifest" out_has "uploaded=3 bytes="
check "one manifest put" out_has "present=0 mounted=0 manifests=1"
check "the big layer went in PATCH chunks" test "$(requests PATCH '/blobs/uploads/')" -ge 3
check "each blob committed by one PUT" test "$(requests PUT '/blobs/uploads/.*digest=')" -eq 3
DIGEST=$(awk 'NR==1 {print $2}' "$WORK/out")
check "the manifest pushed is the layout's" test "$(manifest_of ops/cat v1 | sha256sum | cut -d' ' -f1)" = "${DIGEST#sha256:}"
expect_ok "pulled back" __pull --use-http --no-cache --labels "$PLAIN/ops/cat:v1"
check "labels survive" out_has '{"pushed":"yes"}'
rm -rf "$WORK/u"
expect_ok "unpacked back" __pull --use-http --no-cache --unpack "$WORK/u" "$PLAIN/ops/cat:v1"
check "files survive" cmp -s "$B/manifests/csv.yaml" "$WORK/u/manifests/csv.yaml"
check "big file survives" cmp -s "$WORK/big/blob.bin" "$WORK/u/blob.bin"

# --- re-push and mount ----------------------------------------------------------------------
fault_rules '[]'
expect_ok "re-push" "${PUSH[@]}" "oci:$L:v1" "$FAULT/ops/cat:v2"
check "nothing uploaded again" out_has "uploaded=0 bytes=0 present=3 mounted=0 manifests=1"
check "no upload started" test "$(requests POST '/blobs/uploads/')" -eq 0
fault_rules '[]'
expect_ok "push to another repository, mounting" "${PUSH[@]}" --mount-from ops/cat "oci:$L:v1" "$FAULT/ops/mounted:v1"
check "every blob mounted" out_has "uploaded=0 bytes=0 present=0 mounted=3 manifests=1"
check "mount requests name the source" test "$(requests POST 'mount=sha256%3A.*from=ops%2Fcat')" -eq 3
expect_ok "mounted image pulls" __pull --use-http --no-cache --unpack "$WORK/u2" "$PLAIN/ops/mounted:v1"
fault_rules '[]'
expect_ok "a mount the registry refuses falls back to an upload" "${PUSH[@]}" --mount-from ops/none "oci:$L:v1" "$FAULT/ops/fallback:v1"
check "uploaded instead" out_has "uploaded=3"

# --- retries and broken uploads -------------------------------------------------------------
fault_rules '[{"path": "/blobs/uploads/", "method": "POST", "action": "status", "status": 503, "times": 2}]'
expect_ok "503 on starting an upload is retried" "${PUSH[@]}" "oci:$L:v1" "$FAULT/ops/retried:v1"
fault_rules '[{"path": "/blobs/uploads/", "method": "PATCH", "action": "status", "status": 400, "times": -1, "body": "{\"errors\":[{\"code\":\"BLOB_UPLOAD_INVALID\",\"message\":\"blob upload invalid\"}]}"}]'
expect_fail "an upload the registry rejects fails" "BLOB_UPLOAD_INVALID: blob upload invalid" "${PUSH[@]}" "oci:$L:v1" "$FAULT/ops/broken:v1"
check "the failed upload session is cancelled" test "$(requests DELETE '/blobs/uploads/')" -ge 1
check "no manifest was put" test "$(requests PUT '/manifests/')" -eq 0
expect_fail "nothing under the tag" "MANIFEST_UNKNOWN" __pull --use-http --no-cache "$PLAIN/ops/broken:v1"
fault_rules '[{"path": "/blobs/uploads/", "method": "PATCH", "action": "status", "status": 500, "times": 2}]'
expect_ok "an upload broken mid-way starts over" "${PUSH[@]}" --max-attempts 2 "oci:$L:v1" "$FAULT/ops/restarted:v1"
check "a second upload session was started" test "$(requests POST '/blobs/uploads/')" -ge 4
expect_ok "the restarted upload pulls back whole" __pull --use-http --no-cache --unpack "$WORK/u3" "$PLAIN/ops/restarted:v1"
check "big file survives a restart" cmp -s "$WORK/big/blob.bin" "$WORK/u3/blob.bin"
fault_rules '[{"path": "/blobs/uploads/", "method": "PATCH", "action": "reset", "times": -1}]'
expect_fail "a connection reset mid-upload fails after retries" "PATCH http://$FAULT/v2/ops/reset/blobs/uploads/" "${PUSH[@]}" --max-attempts 2 "oci:$L:v1" "$FAULT/ops/reset:v1"
expect_fail "nothing under the tag after a reset" "MANIFEST_UNKNOWN" __pull --use-http --no-cache "$PLAIN/ops/reset:v1"

fault_rules '[{"path": "/blobs/uploads/$", "method": "POST", "action": "rewrite", "times": -1, "headers": {"Location": "http://elsewhere.example:5000/v2/ops/x/blobs/uploads/1"}}]'
expect_fail "an upload location on another host is refused" \
  "upload location http://elsewhere.example:5000/v2/ops/x/blobs/uploads/1 is not on $FAULT" \
  "${PUSH[@]}" "oci:$L:v1" "$FAULT/ops/elsewhere:v1"
check "nothing was sent there" test "$(requests PATCH '/blobs/uploads/')" -eq 0
fault_rules '[{"path": "/blobs/uploads/$", "method": "POST", "action": "rewrite", "times": -1, "headers": {"Location": "/v2/ops/relative/blobs/uploads/00000000-0000-0000-0000-000000000000"}}]'
expect_fail "a relative upload location is resolved against the registry" \
  "PUT http://$FAULT/v2/ops/relative/blobs/uploads/00000000-0000-0000-0000-000000000000?digest=sha256%3A" \
  "${PUSH[@]}" "oci:$L:v1" "$FAULT/ops/relative:v1"

# --- digests checked before upload ----------------------------------------------------------
cp -r "$L" "$WORK/tampered"
for f in "$WORK/tampered"/blobs/sha256/*; do
  if [ "$(stat -c %s "$f")" -gt 2000000 ]; then
    chmod u+w "$f"
    printf 'x' | dd of="$f" bs=1 seek=10 conv=notrunc 2> /dev/null
  fi
done
fault_rules '[]'
expect_fail "a blob that does not match its digest is not committed" "does not match" \
  "${PUSH[@]}" "oci:$WORK/tampered:v1" "$FAULT/ops/tampered:v1"
check "error names the blob" err_has "pushing blob sha256:"
check "no commit PUT for the bad blob" test "$(requests PUT '/blobs/uploads/.*digest=')" -le 2
expect_fail "nothing under the tampered tag" "MANIFEST_UNKNOWN" __pull --use-http --no-cache "$PLAIN/ops/tampered:v1"

# --- registries.conf --------------------------------------------------------------------------
printf '[[registry]]\nprefix = "example.test/ops"\nlocation = "%s/rewritten"\ninsecure = true\n' "$PLAIN" > "$WORK/rewrite.conf"
expect_ok "a registries.conf location rewrite is pushed to" __push --registries-conf "$WORK/rewrite.conf" "oci:$L:v1" example.test/ops/cat:v1
expect_ok "found at the rewritten location" __pull --use-http --no-cache --labels "$PLAIN/rewritten/cat:v1"
printf '[[registry]]\nlocation = "%s"\nblocked = true\n' "$PLAIN" > "$WORK/blocked.conf"
expect_fail "a blocked registry is refused" "registry $PLAIN is blocked in registries.conf" \
  __push --use-http --registries-conf "$WORK/blocked.conf" "oci:$L:v1" "$PLAIN/ops/blocked:v1"

# --- credentials: Basic, bearer with push scope, TLS ------------------------------------------
if make_htpasswd alice:wonderland; then
  start_registry basic "auth:" "  htpasswd:" "    realm: opm-test" "    path: $WORK/htpasswd"
  BASIC=$REG
  expect_fail "basic: push without credentials" "unauthorized: authentication required" \
    "${PUSH[@]}" "oci:$L:v1" "$BASIC/ops/cat:v1"
  mkdir -p "$WORK/dc"
  printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$BASIC" "$(printf %s alice:wonderland | base64 | tr -d '\n')" > "$WORK/dc/config.json"
  DOCKER_CONFIG=$WORK/dc expect_ok "basic: push with DOCKER_CONFIG credentials" "${PUSH[@]}" "oci:$L:v1" "$BASIC/ops/cat:v1"
  check "no secret printed" bash -c "! grep -q wonderland '$WORK/out' '$WORK/err'"

  start_token_server tokens --user alice:wonderland --anonymous-pull
  TOKSRV=$TOKEN_SERVER
  start_registry token "$(token_yaml "http://$TOKSRV/token")"
  TOKEN=$REG
  expect_fail "bearer: anonymous push is refused" "unauthorized" \
    "${PUSH[@]}" "oci:$L:v1" "$TOKEN/ops/cat:v1"
  printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$TOKEN" "$(printf %s alice:wonderland | base64 | tr -d '\n')" > "$WORK/dc/config.json"
  DOCKER_CONFIG=$WORK/dc expect_ok "bearer: push with credentials" "${PUSH[@]}" "oci:$L:v1" "$TOKEN/ops/cat:v1"
  check "the token asked for pull and push" bash -c "python3 '$TOOLS/httpreq.py' GET 'http://$TOKSRV/_stats' 2> /dev/null | grep -q 'repository:ops/cat:pull,push'"
  DOCKER_CONFIG=$WORK/dc expect_ok "bearer: mount across repositories" "${PUSH[@]}" --mount-from ops/cat "oci:$L:v1" "$TOKEN/ops/copy:v1"
  check "bearer: every blob mounted" out_has "mounted=3"
  DOCKER_CONFIG=$WORK/dc expect_ok "bearer: pulled back" __pull --no-cache --use-http --labels "$TOKEN/ops/copy:v1"
else
  echo "skip: no bcrypt support in python3's crypt module (auth cases)"
fi

start_registry tls "$(tls_yaml)"
TLS=$REG
expect_fail "tls: unknown CA" "certificate" __push "oci:$L:v1" "$TLS/ops/cat:v1"
expect_ok "tls: push with the CA" __push --ca-file "$WORK/pki/ca.crt" "oci:$L:v1" "$TLS/ops/cat:v1"
expect_ok "tls: pulled back" __pull --no-cache --ca-file "$WORK/pki/ca.crt" --labels "$TLS/ops/cat:v1"
check "tls: labels" out_has '{"pushed":"yes"}'

check "no temporary files left" tmp_empty
finish
