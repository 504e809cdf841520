#!/usr/bin/env bash
# opm alpha render-template over bundle images in a registry: a basic and a semver template
# render each image as `opm render` does; a basic template converted back from the rendered
# catalog renders the same catalog again; a missing image is reported with its reference;
# an OCI layout is accepted as a bundle reference; a substitutes template renders its
# substitute from a registry image.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
PKG_LABEL=operators.operatorframework.io.bundle.package.v1
BUNDLES=$OPM_TESTS/data/templates/bundles
for v in 0.1.0 0.1.1 0.2.0; do
  push_image "$R" tpl/bundle "v$v" --files "$BUNDLES/tpl-v$v" --label "$PKG_LABEL=tpl" > /dev/null
done
img() { echo "$REG/tpl/bundle:v$1"; }

cat > "$WORK/basic.yaml" <<EOF
schema: olm.template.basic
entries:
- {schema: olm.package, name: tpl, defaultChannel: stable}
- schema: olm.channel
  package: tpl
  name: stable
  entries:
  - {name: tpl.v0.1.0}
  - {name: tpl.v0.2.0, replaces: tpl.v0.1.0}
- {schema: olm.bundle, image: $(img 0.1.0)}
- {schema: olm.bundle, image: $(img 0.2.0)}
EOF
expect_ok "basic template of images" alpha render-template --use-http "$WORK/basic.yaml"
cp "$WORK/out" "$WORK/basic.json"
"$OPM" render --use-http "$(img 0.1.0)" "$(img 0.2.0)" > "$WORK/bundles.json"
check "bundles rendered as opm render renders them" \
  cmp -s <(grep -A100000 -m1 '"schema": "olm.bundle"' "$WORK/basic.json" | sed 1d) \
  <(grep -A100000 -m1 '"schema": "olm.bundle"' "$WORK/bundles.json" | sed 1d)

# Round trip: the rendered catalog, converted to a basic template, renders the same.
mkdir "$WORK/rt"
"$OPM" alpha convert-template basic "$WORK/basic.json" > "$WORK/rt/template.json"
expect_ok "converted template renders" alpha render-template --use-http "$WORK/rt/template.json"
check "round trip gives the same catalog" cmp -s "$WORK/out" "$WORK/basic.json"

expect_ok "--migrate-level" alpha render-template --use-http "$WORK/basic.yaml" \
  --migrate-level bundle-object-to-csv-metadata -o yaml
check "csv metadata in each bundle" test "$(grep -c 'type: olm.csv.metadata' "$WORK/out")" = 2
check "no bundle objects left" test "$(grep -c 'type: olm.bundle.object' "$WORK/out")" = 0

cat > "$WORK/semver.yaml" <<EOF
schema: olm.semver
stable:
  bundles:
  - image: $(img 0.2.0)
  - image: $(img 0.1.0)
  - image: $(img 0.1.1)
EOF
expect_ok "semver template of images" alpha render-template --use-http "$WORK/semver.yaml" -o yaml
check "default channel is the newest minor" out_has "defaultChannel: stable-v0.2"
check "the newest bundle's description" out_has "description: Tpl operator at 0.2.0"
check "the image is the reference" out_has "image: $(img 0.1.1)"

sed "s#$(img 0.2.0)#$REG/tpl/bundle:nothere#" "$WORK/basic.yaml" > "$WORK/missing.yaml"
expect_fail "a missing image" \
  "$WORK/missing.yaml: rendering template: render reference \"$REG/tpl/bundle:nothere\": failed to pull image \"$REG/tpl/bundle:nothere\"" \
  alpha render-template --use-http "$WORK/missing.yaml"
check "on one line, without the usage" test "$(wc -l < "$WORK/err")" -eq 1

# Templates take bundle images only: a catalog image or a SQLite index image named as a
# bundle is refused, as latest upstream refuses it.
mkdir -p "$WORK/catimg/configs" "$WORK/dbimg/database"
printf '{"schema":"olm.package","name":"other"}\n' > "$WORK/catimg/configs/index.json"
cp "$OPM_TESTS/data/sqlite/kiwi.db" "$WORK/dbimg/database/index.db"
push_image "$R" tpl/catalog v1 --files "$WORK/catimg" \
  --label operators.operatorframework.io.index.configs.v1=/configs > /dev/null
push_image "$R" tpl/index v1 --files "$WORK/dbimg" \
  --label operators.operatorframework.io.index.database.v1=/database/index.db > /dev/null
sed "s#$(img 0.2.0)#$REG/tpl/catalog:v1#" "$WORK/basic.yaml" > "$WORK/catalog-image.yaml"
expect_fail "a catalog image as a template bundle" \
  "$WORK/catalog-image.yaml: rendering template: render reference \"$REG/tpl/catalog:v1\": cannot render declarative config image: not allowed" \
  alpha render-template --use-http "$WORK/catalog-image.yaml"
sed "s#$(img 0.2.0)#$REG/tpl/index:v1#" "$WORK/basic.yaml" > "$WORK/index-image.yaml"
expect_fail "a SQLite index image as a template bundle" \
  "$WORK/index-image.yaml: rendering template: render reference \"$REG/tpl/index:v1\": cannot render sqlite image: not allowed" \
  alpha render-template --use-http "$WORK/index-image.yaml"

cat > "$WORK/substitutes.yaml" <<EOF
schema: olm.template.substitutes
entries:
- {schema: olm.package, name: tpl, defaultChannel: stable}
- schema: olm.channel
  package: tpl
  name: stable
  entries:
  - {name: tpl.v0.1.0}
  - {name: tpl.v0.1.1, replaces: tpl.v0.1.0}
- {schema: olm.bundle, name: tpl.v0.1.0, package: tpl, image: $(img 0.1.0), properties: [{type: olm.package, value: {packageName: tpl, version: 0.1.0}}]}
- {schema: olm.bundle, name: tpl.v0.1.1, package: tpl, image: $(img 0.1.1), properties: [{type: olm.package, value: {packageName: tpl, version: 0.1.1}}]}
substitutions:
- {name: $(img 0.2.0), base: tpl.v0.1.1}
EOF
expect_ok "substitutes template of images" alpha render-template --use-http "$WORK/substitutes.yaml" -o yaml
check "the substitute replaces the base's predecessor and skips the base" \
  grep -qzF -- "$(printf -- '- name: tpl.v0.2.0\n  replaces: tpl.v0.1.0\n  skips:\n  - tpl.v0.1.1')" "$WORK/out"
check "the substitute is rendered from its image" out_has "image: $(img 0.2.0)"

L=$WORK/layout
"${IMAGETOOL[@]}" layout "$L" v1 --files "$BUNDLES/tpl-v0.1.1" --label "$PKG_LABEL=tpl" > /dev/null
printf 'schema: olm.template.basic\nentries:\n- {schema: olm.bundle, image: "oci:%s:v1"}\n' "$L" \
  > "$WORK/oci.yaml"
expect_ok "an oci layout in a basic template" alpha render-template "$WORK/oci.yaml" -o yaml
check "the layout names the bundle" out_has "image: oci:$L:v1"
check "no unpack directory left" tmp_empty

finish
