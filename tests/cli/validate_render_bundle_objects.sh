#!/usr/bin/env bash
# validate and render read every olm.bundle.object but keep only the CSV: a bundle without an
# image whose only object is not a CSV still has objects, bad object data still fails, and
# render --migrate-level makes olm.csv.metadata from the CSV it kept.
source "$OPM_TESTS/cli/lib/common.bash"

base64_of() { printf '%s' "$1" | base64 -w0; }
crd=$(base64_of '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"ws.x"}}')
csv=$(base64_of '{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"a.v1.0.0"},"spec":{"displayName":"A","version":"1.0.0"}}')
mkdir -p cat
cat >cat/catalog.json <<JSON
{"schema":"olm.package","name":"a","defaultChannel":"stable"}
{"schema":"olm.channel","package":"a","name":"stable","entries":[{"name":"a.v1.0.0"},{"name":"a.v1.1.0","replaces":"a.v1.0.0"}]}
{"schema":"olm.bundle","package":"a","name":"a.v1.0.0","properties":[{"type":"olm.package","value":{"packageName":"a","version":"1.0.0"}},{"type":"olm.bundle.object","value":{"data":"$crd"}}]}
{"schema":"olm.bundle","package":"a","name":"a.v1.1.0","image":"quay.io/a/a:1.1.0","properties":[{"type":"olm.package","value":{"packageName":"a","version":"1.1.0"}},{"type":"olm.bundle.object","value":{"data":"$crd"}},{"type":"olm.bundle.object","value":{"data":"$csv"}}]}
JSON

run_opm validate cat
expect_rc 0
[ -s err ] && fail "an image-less bundle with a CRD object was refused: $(cat err)"

run_opm render cat -o json --migrate-level bundle-object-to-csv-metadata
expect_rc 0
out_has '"type": "olm.csv.metadata"' || fail "no olm.csv.metadata made from the kept CSV: $(cat out)"
out_has '"displayName": "A"' || fail "the CSV's display name is missing: $(cat out)"
[ "$(grep -c '"type": "olm.bundle.object"' out)" = 1 ] ||
  fail "the image-less bundle's object is not written back: $(cat out)"

sed -i 's/"data":"'"$crd"'"}}]}/"data":"!!"}}]}/' cat/catalog.json
run_opm validate cat
expect_rc 1
err_has 'cat/catalog.json:3: read bundle objects: package \"a\", bundle \"a.v1.0.0\": parse property at index 1 as bundle object: illegal base64 data at input byte 0' ||
  fail "bad object data is not named: $(cat err)"
