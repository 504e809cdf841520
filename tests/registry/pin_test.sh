#!/usr/bin/env bash
# opm alpha pin: every tag of a catalog's bundle images and related images becomes the
# digest the registry gives for it (a multi-platform image: its index's digest); digests
# already written stay and need no registry; mirrors and credentials are the client's; a
# tag the registry lacks fails naming bundle and image with nothing written, or stays as
# it is with --skip-unresolved.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
mkdir -p "$WORK/layer"
echo app > "$WORK/layer/app"

app=$(push_image "$R" ops/app v1 --files "$WORK/layer" | cut -d' ' -f1)
bundle=$(push_image "$R" ops/app-bundle v1 --files "$WORK/layer" --label a=b | cut -d' ' -f1)
read -r amd amd_size amd_type < <(push_image "$R" ops/multi amd64 --files "$WORK/layer" --arch amd64)
read -r arm arm_size arm_type < <(push_image "$R" ops/multi arm64 --files "$WORK/layer" --arch arm64)
multi=$("${IMAGETOOL[@]}" index "$R" ops/multi v1 \
  --entry "$amd,$amd_size,$amd_type,linux/amd64" --entry "$arm,$arm_size,$arm_type,linux/arm64" |
  cut -d' ' -f1)

# write_catalog DIR RELATED_IMAGE...: one package, one bundle with these related images.
write_catalog() {
  local dir=$1 image
  shift
  mkdir -p "$dir"
  {
    printf '%s\n' "---" "schema: olm.package" "name: app" "defaultChannel: stable"
    printf '%s\n' "---" "schema: olm.channel" "package: app" "name: stable" "entries:" \
      "- name: app.v1.0.0"
    printf '%s\n' "---" "schema: olm.bundle" "package: app" "name: app.v1.0.0" \
      "image: $REG/ops/app-bundle:v1" "properties:" "- type: olm.package" "  value:" \
      "    packageName: app" "    version: 1.0.0" "relatedImages:"
    for image in "$@"; do
      printf '%s\n' "- image: $image"
    done
  } > "$dir/catalog.yaml"
}

write_catalog "$WORK/cat" "$REG/ops/app:v1" "$REG/ops/multi:v1" "$REG/ops/app@$app"
"$OPM" render "$WORK/cat" -o yaml |
  sed -e "s#$REG/ops/app-bundle:v1#$REG/ops/app-bundle@$bundle#" \
    -e "s#$REG/ops/app:v1#$REG/ops/app@$app#" \
    -e "s#$REG/ops/multi:v1#$REG/ops/multi@$multi#" > "$WORK/expected.yaml"

expect_ok "pin a catalog" alpha pin --use-http "$WORK/cat" -o yaml
check "every tag names its digest, an index its own" cmp -s "$WORK/out" "$WORK/expected.yaml"
check "nothing logged" test ! -s "$WORK/err"
mkdir -p "$WORK/pinned"
cp "$WORK/out" "$WORK/pinned/catalog.yaml"

expect_ok "pin for a platform the index has" alpha pin --use-http --platform linux/arm64 \
  "$WORK/cat" -o yaml
check "the index digest, whatever the platform" cmp -s "$WORK/out" "$WORK/expected.yaml"

write_catalog "$WORK/missing" "$REG/ops/app:v1" "$REG/ops/app:nope"
expect_fail "a tag the registry lacks" \
  "bundle \"app.v1.0.0\" image \"$REG/ops/app:nope\": " alpha pin --use-http "$WORK/missing"
check "exit 1" test "$RC" -eq 1
check "the error names the catalog file and line" err_has "$WORK/missing/catalog.yaml:12: "
check "nothing written" test ! -s "$WORK/out"
check "one line" test "$(wc -l < "$WORK/err")" -eq 1

expect_ok "skip what does not resolve" alpha pin --use-http --skip-unresolved "$WORK/missing" \
  -o yaml
check "the missing tag stays" out_has "image: $REG/ops/app:nope"
check "the others are pinned" out_has "image: $REG/ops/app@$app"
check "a warning names it" err_has "level=warning msg=\"leaving unresolved bundle \\\"app.v1.0.0\\\" image \\\"$REG/ops/app:nope\\\""

# A mirror answers for a registry that is down (registries.conf): the name stays the one
# the catalog gives.
dead=127.0.0.1:$(free_port)
cat > "$CONTAINERS_REGISTRIES_CONF" << CONF
[[registry]]
location = "$dead/ops"
insecure = true
[[registry.mirror]]
location = "$REG/ops"
insecure = true
CONF
mkdir -p "$WORK/mirrored"
printf '%s\n' "---" "schema: olm.bundle" "package: app" "name: app.v1.0.0" \
  "image: $dead/ops/app:v1" > "$WORK/mirrored/catalog.yaml"
expect_ok "pin through a mirror" alpha pin --use-http "$WORK/mirrored" -o yaml
check "the catalog's name with the mirror's digest" out_has "image: $dead/ops/app@$app"
: > "$CONTAINERS_REGISTRIES_CONF"

# A registry that wants credentials: the client's keychain supplies them.
if make_htpasswd alice:wonderland; then
  start_registry basic "auth:" "  htpasswd:" "    realm: opm-test" "    path: $WORK/htpasswd"
  secret=$(push_image "http://$REG" ops/secret v1 --files "$WORK/layer" --user alice:wonderland |
    cut -d' ' -f1)
  mkdir -p "$WORK/auth"
  printf '%s\n' "---" "schema: olm.bundle" "package: app" "name: app.v1.0.0" \
    "image: $REG/ops/secret:v1" > "$WORK/auth/catalog.yaml"
  expect_fail "a private image without credentials" \
    "bundle \"app.v1.0.0\" image \"$REG/ops/secret:v1\": " alpha pin --use-http "$WORK/auth"
  mkdir -p "$HOME/.docker"
  printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$REG" \
    "$(printf %s alice:wonderland | base64 | tr -d '\n')" > "$HOME/.docker/config.json"
  expect_ok "a private image with credentials" alpha pin --use-http "$WORK/auth" -o yaml
  check "pinned to its digest" out_has "image: $REG/ops/secret@$secret"
  rm -f "$HOME/.docker/config.json"
else
  echo "skip: no bcrypt support in python3's crypt module for the credentials case"
fi

# Without a registry: a pinned catalog comes out as it went in.
kill "$(awk '$2 == "plain" { print $1 }' "$WORK/pids")"
expect_ok "pin a pinned catalog with no registry" alpha pin --use-http "$WORK/pinned" -o yaml
check "unchanged" cmp -s "$WORK/out" "$WORK/pinned/catalog.yaml"

finish
