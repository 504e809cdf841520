#!/usr/bin/env bash
# `opm render <bundle-directory> --alpha-image-ref-template`: the bundle image reference
# made from the bundle, and the template errors.
source "$OPM_TESTS/cli/lib/common.bash"
data=$OPM_TESTS/data/bundles

"$OPM" render "$data/release" \
  --alpha-image-ref-template 'quay.io/{{.Package}}/{{.Name}}: {{- "v" -}} {{.Version}}' \
  >"$WORK/out.json"
expect_eq "image and its related image entry" \
  "$(printf '"image": "quay.io/tiny/tiny-v0.1.0-2:v0.1.0",\n"image": "quay.io/tiny/tiny-v0.1.0-2:v0.1.0"')" \
  "$(grep '"image"' "$WORK/out.json" | sed 's/^ *//')"

"$OPM" render "$data/release" >"$WORK/plain.json"
expect_eq "no template, no image and no related images" '"image": "",' \
  "$(grep -E '"image"|relatedImages' "$WORK/plain.json" | sed 's/^ *//')"

status=0
"$OPM" render "$data/full" --alpha-image-ref-template '{{.Package' >"$WORK/out" 2>"$WORK/err" || status=$?
expect_eq "template parse error exit status" 1 "$status"
expect_eq "template parse error" \
  "DATE invalid image reference template: template: image-ref-template:1: unclosed action" \
  "$(normalized_err)"
expect_eq "nothing on stdout" "" "$(cat "$WORK/out")"

status=0
"$OPM" render "$data/full" --alpha-image-ref-template '{{.Tag}}' >"$WORK/out" 2>"$WORK/err" || status=$?
expect_eq "template execution error exit status" 1 "$status"
expect_eq "template execution error" \
  "DATE render reference \"$data/full\": failed templating image reference from bundle for \"$data/full\": template: image-ref-template:1:2: executing \"image-ref-template\" at <.Tag>: can't evaluate field Tag in type action.imageReferenceTemplateData" \
  "$(normalized_err)"
