#!/usr/bin/env bash
# Commands that run and exit take their C++ heap from libmimalloc.so.2 when it is installed;
# servers keep glibc's (src/heap/batch_heap.cpp), but load a catalog of package directories
# on a scratch heap of mimalloc's. Skipped for a build without the choice (the
# sanitizer builds) or a machine without the library.
source "$OPM_TESTS/cli/lib/common.bash"

[[ "$(nm -C "$OPM")" == *choose_heap* ]] || { echo "skip: $OPM chooses no heap"; exit 77; }
[[ "$(ldconfig -p)" == *"libmimalloc.so.2 "* ]] || { echo "skip: no libmimalloc.so.2"; exit 77; }

# loads_mimalloc ARGS...: whether running opm with ARGS opens libmimalloc.so.2.
loads_mimalloc() {
  LD_DEBUG=files "$OPM" "$@" >"$WORK/out" 2>"$WORK/err" || true
  grep -q 'file=libmimalloc\.so\.2 .*dynamically loaded by' "$WORK/err"
}

mkdir -p catalog/a
cat >catalog/a/catalog.yaml <<'YAML'
schema: olm.package
name: a
defaultChannel: stable
---
schema: olm.channel
package: a
name: stable
entries:
  - name: a.v1.0.0
---
schema: olm.bundle
package: a
name: a.v1.0.0
image: quay.io/a/a:v1.0.0
properties:
  - type: olm.package
    value: {packageName: a, version: 1.0.0}
YAML

if loads_mimalloc validate catalog; then pass "validate takes its heap from mimalloc"; else failed "validate takes its heap from mimalloc"; fi
if loads_mimalloc render catalog -o json; then pass "render takes its heap from mimalloc"; else failed "render takes its heap from mimalloc"; fi
if ! loads_mimalloc serve --help; then pass "serve keeps glibc's heap"; else failed "serve keeps glibc's heap"; fi
if ! loads_mimalloc registry serve --help; then pass "registry serve keeps glibc's heap"; else failed "registry serve keeps glibc's heap"; fi

# A catalog laid out one directory per package is loaded on the scratch heap; any other layout
# on glibc's. Both give the same cache, the CSV made from olm.csv.metadata included.
mkdir -p csv_catalog/b whole
cat >csv_catalog/b/catalog.yaml <<'YAML'
schema: olm.package
name: b
defaultChannel: stable
---
schema: olm.channel
package: b
name: stable
entries:
  - name: b.v1.0.0
---
schema: olm.bundle
package: b
name: b.v1.0.0
image: quay.io/b/b:v1.0.0
properties:
  - type: olm.package
    value: {packageName: b, version: 1.0.0}
  - type: olm.csv.metadata
    value:
      annotations: {capabilities: Basic Install, description: "A <b> operator"}
      displayName: B Operator
      installModes:
        - {supported: true, type: AllNamespaces}
      keywords: [b, example]
      provider: {name: Example}
YAML
cp csv_catalog/b/catalog.yaml whole/b.yaml
if loads_mimalloc serve csv_catalog --cache-dir by_package --cache-only; then
  pass "serve loads package directories on a scratch heap"
else
  failed "serve loads package directories on a scratch heap"
fi
if ! loads_mimalloc serve whole --cache-dir whole_cache --cache-only; then
  pass "serve loads other layouts on glibc's heap"
else
  failed "serve loads other layouts on glibc's heap"
fi
if diff -r -x digest by_package whole_cache >cache.diff &&
  grep -q '"csvJson":"{\\"kind\\":\\"ClusterServiceVersion\\"' by_package/cache/b_stable_b.v1.0.0.json; then
  pass "the cache is the same on either heap"
else
  failed "the cache is the same on either heap"
  cat cache.diff
fi

# The environment is read as on glibc's heap (opening a library too early loses it).
HELP_ALPHA=true run_opm --help
expect_rc 0
if grep -q '^  alpha ' out; then pass "the environment is read"; else failed "the environment is read"; fi

# The answers are the same on either heap. Any argument "serve" keeps glibc's heap, so the same
# catalog in a directory named serve is rendered on it.
run_opm render catalog -o json
expect_rc 0
cp out on_mimalloc.json
cp -r catalog serve
if ! loads_mimalloc render serve -o json; then pass "an argument serve keeps glibc's heap"; else failed "an argument serve keeps glibc's heap"; fi
run_opm render serve -o json
expect_rc 0
cp out on_glibc.json
cat >expected.json <<'JSON'
{
    "schema": "olm.package",
    "name": "a",
    "defaultChannel": "stable"
}
{
    "schema": "olm.channel",
    "name": "stable",
    "package": "a",
    "entries": [
        {
            "name": "a.v1.0.0"
        }
    ]
}
{
    "schema": "olm.bundle",
    "name": "a.v1.0.0",
    "package": "a",
    "image": "quay.io/a/a:v1.0.0",
    "properties": [
        {
            "type": "olm.package",
            "value": {
                "packageName": "a",
                "version": "1.0.0"
            }
        }
    ]
}
JSON
# On huge pages and on small ones (src/heap/huge_pages.hpp: the machine decides unless the
# environment says), the same.
MIMALLOC_LARGE_OS_PAGES=1 run_opm render catalog -o json
expect_rc 0
cp out on_huge_pages.json
MIMALLOC_LARGE_OS_PAGES=0 run_opm render catalog -o json
expect_rc 0
cp out on_small_pages.json
for heap in mimalloc glibc huge_pages small_pages; do
  if cmp -s "on_$heap.json" expected.json; then pass "render's output on $heap"; else failed "render's output on $heap"; diff -u expected.json "on_$heap.json"; fi
done
finish
