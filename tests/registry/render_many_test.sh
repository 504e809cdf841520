#!/usr/bin/env bash
# opm render of many images in one call: output keeps the argument order, the first failing
# reference in that order is the one reported, a warm render (from the cache of rendered
# bundles) prints exactly what a cold one does, a damaged cache entry is rendered afresh,
# OPM_NO_CACHE=1 leaves nothing behind, and progress appears only on a terminal. Also
# alpha list and render-graph of catalog images; --platform chooses from multi-platform
# images.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
PKG_LABEL=operators.operatorframework.io.bundle.package.v1
CONFIGS_LABEL=operators.operatorframework.io.index.configs.v1

# Three versions of one package, plus a bundle whose custom property holds numbers of
# every kind.
mkdir -p "$WORK/bundles"
for v in 1 2 3; do
  B=$WORK/bundles/v$v
  cp -r "$OPM_TESTS/data/bundles/full" "$B"
  sed -i -e "s/example-operator.v1.2.3/example-operator.v1.2.$v/" -e "s/version: 1.2.3/version: 1.2.$v/" \
    "$B/manifests/example-operator.clusterserviceversion.yaml"
  push_image "$R" ops/many-bundle "v$v" --files "$B" --label "$PKG_LABEL=example-operator" > /dev/null
done
N=$WORK/bundles/numbers
cp -r "$OPM_TESTS/data/bundles/full" "$N"
cat >> "$N/metadata/properties.yaml" << 'YAML'
- type: example.numbers
  value: {float: 1.0, exp: 1e3, big: 12345678901234567890, neg: -0.0, small: 0.000001, int: 7}
YAML
push_image "$R" ops/numbers-bundle v1 --files "$N" --label "$PKG_LABEL=example-operator" > /dev/null

# The writer sorts bundles by package and name, so the order of rendering shows only
# among bundles of the same name: one bundle pushed under three tags.
for t in t1 t2 t3; do
  push_image "$R" ops/same-bundle "$t" --files "$WORK/bundles/v1" \
    --label "$PKG_LABEL=example-operator" > /dev/null
done
# The bundles' own image tags, in output order ("t3 t1 t2 ").
tags_in_out() {
  grep -o "^    \"image\": \"$REG/ops/same-bundle:t[0-9]\"" "$WORK/out" |
    sed 's/.*:\(t[0-9]\)"$/\1/' | tr '\n' ' '
}

expect_ok "render three images" render --use-http "$REG/ops/same-bundle:t3" \
  "$REG/ops/same-bundle:t1" "$REG/ops/same-bundle:t2"
check "bundles follow the argument order" test "$(tags_in_out)" = "t3 t1 t2 "
check "nothing on stderr when it is not a terminal" test ! -s "$WORK/err"

OPM_JOBS=1 expect_ok "render three images one at a time" render --use-http \
  "$REG/ops/same-bundle:t2" "$REG/ops/same-bundle:t3" "$REG/ops/same-bundle:t1"
check "one job keeps the argument order too" test "$(tags_in_out)" = "t2 t3 t1 "

expect_fail "the first failing reference is reported" \
  "render reference \"$REG/ops/missing-a:v1\": failed to pull image \"$REG/ops/missing-a:v1\"" \
  render --use-http "$REG/ops/many-bundle:v1" "$REG/ops/missing-a:v1" "$REG/ops/missing-b:v1"
check "no output after a failure" test ! -s "$WORK/out"
check "the later failure is not reported" bash -c "! grep -q missing-b '$WORK/err'"
check "no unpack directory left" tmp_empty

# Cold and warm renders print the same bytes, in JSON and YAML, with and without migrations.
export XDG_CACHE_HOME=$WORK/cache-warm
ALL=("$REG/ops/numbers-bundle:v1" "$REG/ops/many-bundle:v1" "$REG/ops/many-bundle:v2")
for args in "-o json" "-o yaml" "-o json --migrate" "-o yaml --migrate"; do
  rm -rf "$XDG_CACHE_HOME"
  # shellcheck disable=SC2086
  "$OPM" render --use-http "${ALL[@]}" $args > "$WORK/cold" 2> "$WORK/err"
  # shellcheck disable=SC2086
  expect_ok "warm render $args" render --use-http "${ALL[@]}" $args
  check "warm render $args equals the cold one" cmp -s "$WORK/cold" "$WORK/out"
done
entries=("$XDG_CACHE_HOME"/opm/renders/*/*.entry)
check "rendered bundles are cached" test "${#entries[@]}" -eq 3
check "the numbers property survives the cache" grep -qE '"?big"?: 12345678901234567890' "$WORK/cold"

# A bundle rendered before is read back, not unpacked again: an unpack limit it now breaks
# does not matter, while without the cache it does.
OPM_UNPACK_MAX_ENTRIES=1 expect_ok "a cached bundle is read, not unpacked" \
  render --use-http "$REG/ops/numbers-bundle:v1"
check "the cached bundle is rendered" out_has "\"image\": \"$REG/ops/numbers-bundle:v1\""
OPM_NO_CACHE=1 OPM_UNPACK_MAX_ENTRIES=1 expect_fail "without the cache the bundle is unpacked" \
  "more than 1 entries" render --use-http "$REG/ops/numbers-bundle:v1"

# A damaged entry counts as absent and is rendered afresh.
for e in "${entries[@]}"; do
  head -c 100 "$e" > "$e.cut" && mv "$e.cut" "$e"
done
expect_ok "render over damaged cache entries" render --use-http "${ALL[@]}" -o yaml --migrate
check "damaged entries give the same output" cmp -s "$WORK/cold" "$WORK/out"
check "damaged entries are rewritten" test "$(wc -c < "${entries[0]}")" -gt 100

# Entries of other builds are removed when this one stores its first.
mkdir -p "$XDG_CACHE_HOME/opm/renders/0123456789abcdef"
touch "$XDG_CACHE_HOME/opm/renders/0123456789abcdef/old.entry"
rm -f "${entries[@]}"
expect_ok "render after another build cached" render --use-http "${ALL[@]}"
check "other builds' entries are gone" test ! -e "$XDG_CACHE_HOME/opm/renders/0123456789abcdef"

export XDG_CACHE_HOME=$WORK/cache-none
OPM_NO_CACHE=1 expect_ok "render without a cache" render --use-http "${ALL[@]}"
check "OPM_NO_CACHE=1 keeps no cache" test ! -e "$XDG_CACHE_HOME"
check "OPM_NO_CACHE=1 leaves no temporary directory" tmp_empty
OPM_NO_CACHE=false expect_ok "render with OPM_NO_CACHE=false" render --use-http "${ALL[@]}"
check "OPM_NO_CACHE=false keeps the cache" test -d "$XDG_CACHE_HOME/opm/renders"

# A cache that cannot be made (a read-only or missing home) does not stop a render.
touch "$WORK/a-file"
XDG_CACHE_HOME=$WORK/a-file/cache expect_ok "render with an unusable cache directory" \
  render --use-http "${ALL[@]}" -o yaml --migrate
check "an unusable cache directory changes no output" cmp -s "$WORK/cold" "$WORK/out"
check "an unusable cache directory leaves no temporary one" tmp_empty

export OLM_CACHE_DIR=$WORK/olm-cache
expect_ok "render with OLM_CACHE_DIR" render --use-http "$REG/ops/many-bundle:v1"
check "OLM_CACHE_DIR relocates the cache" test -d "$OLM_CACHE_DIR/images/renders"
unset OLM_CACHE_DIR

# Only where `script` can open a pseudo-terminal (a chroot without /dev/pts cannot).
if command -v script > /dev/null 2>&1 && script -qec true /dev/null > /dev/null 2>&1; then
  script -qec "\"$OPM\" render --use-http ${ALL[*]} > /dev/null" /dev/null > "$WORK/tty" 2>&1 || true
  check "progress is shown on a terminal" grep -q 'rendering 1/3' "$WORK/tty"
  check "the progress line is erased at the end" grep -q $'\r\033\\[K' "$WORK/tty"
fi

# A two-platform index: this host's image by default, another with --platform.
read -r D_AMD S_AMD T_AMD < <(push_image "$R" ops/multi-bundle amd64 --files "$WORK/bundles/v1" \
  --label "$PKG_LABEL=example-operator" --arch amd64)
read -r D_ARM S_ARM T_ARM < <(push_image "$R" ops/multi-bundle arm64 --files "$WORK/bundles/v2" \
  --label "$PKG_LABEL=example-operator" --arch arm64 --variant v8)
"${IMAGETOOL[@]}" index "$R" ops/multi-bundle v1 --entry "$D_ARM,$S_ARM,$T_ARM,linux/arm64/v8" \
  --entry "$D_AMD,$S_AMD,$T_AMD,linux/amd64" > /dev/null
if [ "$(uname -m)" = x86_64 ]; then
  expect_ok "render an index for this host" render --use-http "$REG/ops/multi-bundle:v1"
  check "this host's image is rendered" out_has '"name": "example-operator.v1.2.1"'
fi
expect_ok "render an index for another platform" render --use-http --platform linux/arm64 \
  "$REG/ops/multi-bundle:v1"
check "the chosen platform's image is rendered" out_has '"name": "example-operator.v1.2.2"'
expect_fail "a platform the index lacks" \
  'no image found in image index for architecture "s390x", variant "", OS "linux"' \
  render --use-http --platform linux/s390x "$REG/ops/multi-bundle:v1"
expect_fail "a malformed platform" 'Error: invalid platform "linux": want os/arch[/variant]' \
  render --use-http --platform linux "$REG/ops/multi-bundle:v1"

# alpha list and render-graph read catalog images too, and refuse bundle images.
CAT=$WORK/catalog-image
mkdir -p "$CAT/configs/example-operator"
{
  "$OPM" init example-operator --default-channel stable -o yaml
  printf -- '---\nschema: olm.channel\npackage: example-operator\nname: stable\nentries:\n'
  printf -- '- name: example-operator.v1.2.1\n- name: example-operator.v1.2.2\n  replaces: example-operator.v1.2.1\n'
  echo ---
  "$OPM" render --use-http "$REG/ops/many-bundle:v1" "$REG/ops/many-bundle:v2" -o yaml
} > "$CAT/configs/example-operator/index.yaml"
push_image "$R" ops/catalog v1 --files "$CAT" --label "$CONFIGS_LABEL=/configs" > /dev/null

for what in "packages" "channels" "bundles-of example-operator"; do
  args=("$what")
  extra=()
  if [ "$what" != "${what#bundles-of }" ]; then
    args=(bundles)
    extra=("${what#bundles-of }")
  fi
  "$OPM" alpha list "${args[@]}" "$CAT/configs" "${extra[@]}" > "$WORK/want" 2> "$WORK/err"
  expect_ok "alpha list $what of a catalog image" \
    --use-http alpha list "${args[@]}" "$REG/ops/catalog:v1" "${extra[@]}"
  check "alpha list $what of the image equals that of its directory" cmp -s "$WORK/want" "$WORK/out"
done
expect_fail "alpha list of a bundle image" "cannot list non-index \\\"$REG/ops/many-bundle:v1\\\"" \
  --use-http alpha list packages "$REG/ops/many-bundle:v1"

"$OPM" alpha render-graph "$CAT/configs" > "$WORK/want"
expect_ok "render-graph of a catalog image" --use-http alpha render-graph "$REG/ops/catalog:v1"
check "render-graph of the image equals that of its directory" cmp -s "$WORK/want" "$WORK/out"
expect_fail "render-graph of a bundle image" \
  "render reference \"$REG/ops/many-bundle:v1\": cannot render bundle image: not allowed" \
  --use-http alpha render-graph "$REG/ops/many-bundle:v1"
check "no unpack directory left at the end" tmp_empty

finish
