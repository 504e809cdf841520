#!/usr/bin/env bash
# opm alpha filter cuts a catalog to what a FilterConfiguration names: whole packages come
# out as render gives them, version ranges keep what their bundles upgrade through,
# deprecations follow, a default channel filtered away must be replaced, and the result
# always validates. Bad input fails on one line naming the file, with nothing written.
source "$OPM_TESTS/cli/lib/common.bash"

F="$DATA/filter"
cp -r "$F/catalog" cat

run_opm alpha filter cat --config "$F/heads.yaml" -o yaml
expect_rc 0
"$OPM" render cat -o yaml >"$WORK/rendered.yaml"
expect_file out "$WORK/rendered.yaml"

cat >one.yaml <<'YAML'
apiVersion: olm.operatorframework.io/v1alpha1
kind: FilterConfiguration
packages:
- name: cockroach
YAML
run_opm alpha filter cat -c one.yaml
expect_rc 0
"$OPM" render cat/cockroach >"$WORK/cockroach.json"
expect_file out "$WORK/cockroach.json"

# A range cutting the replaces chain: 2.0.0 stays, out of range, as the way up from 1.1.x.
run_opm alpha filter cat -c "$F/range.yaml" -o yaml
expect_rc 0
expect_file out "$F/expected/range.yaml"
expect_err_line 'time="T" level=warning msg="including bundle \"etcd.v2.0.0\" with version \"2.0.0\": it falls outside the specified range of \">=1.1.0 <2.0.0\" but is required to ensure inclusion of all bundles in the range"'
mkdir -p range && cp out range/catalog.yaml
run_opm validate range
expect_rc 0

# The skipRange head alone above the range; the deprecation keeps what is still there.
run_opm alpha filter cat -c "$F/deprecations.yaml" -o yaml
expect_rc 0
expect_file out "$F/expected/deprecations.yaml"
mkdir -p deprecations && cp out deprecations/catalog.yaml
run_opm validate deprecations
expect_rc 0

run_opm alpha filter cat -c "$F/heads.yaml" --keep-heads-only -o yaml
expect_rc 0
expect_file out "$F/expected/heads.yaml"
mkdir -p heads && cp out heads/catalog.yaml
run_opm validate heads
expect_rc 0

# Without a configuration, heads only keeps every package.
run_opm alpha filter cat --keep-heads-only -o yaml
expect_rc 0
expect_file out "$F/expected/heads.yaml"

run_opm alpha filter cat -c "$F/default-set.yaml" -o yaml
expect_rc 0
expect_file out "$F/expected/default-set.yaml"

run_opm alpha filter cat -c "$F/default-gone.yaml"
expect_rc 1
expect_text out ''
expect_err_line "DATE $F/default-gone.yaml:4: invalid default channel configuration for package \"etcd\": the default channel \"stable\" was filtered out, a new default channel must be configured for this package"

cat >typo.yaml <<'YAML'
apiVersion: olm.operatorframework.io/v1alpha1
kind: FilterConfiguration
packages:
- name: etdc
YAML
run_opm alpha filter cat -c typo.yaml
expect_rc 1
expect_err_line 'DATE typo.yaml:4: package "etdc" is not in the catalog'

cat >empty-range.yaml <<'YAML'
apiVersion: olm.operatorframework.io/v1alpha1
kind: FilterConfiguration
packages:
- name: etcd
  channels:
  - name: stable
    versionRange: ">=3.0.0"
YAML
run_opm alpha filter cat -c empty-range.yaml
expect_rc 1
expect_err_line 'DATE empty-range.yaml:6: package "etcd" channel "stable" has version range ">=3.0.0" that results in an empty channel'

sed 's/>=3.0.0/>=one/' empty-range.yaml >bad-range.yaml
run_opm alpha filter cat -c bad-range.yaml
expect_rc 1
expect_err_line 'DATE bad-range.yaml:6: package "etcd" channel "stable": error parsing version range: improper constraint: >=one'

printf 'apiVersion: olm.operatorframework.io/v1alpha1\nkind: Filter\npackages:\n- channels:\n  - name: a\n' >bad.yaml
run_opm alpha filter cat -c bad.yaml
expect_rc 1
expect_err_line 'DATE bad.yaml: unexpected kind "Filter"; package "" at index [0] is invalid: name must be specified'

printf 'kind: [\n' >broken.yaml
run_opm alpha filter cat -c broken.yaml
expect_rc 1
expect_err_line 'DATE broken.yaml:1: yaml: line 1: did not find expected node content'

run_opm alpha filter cat -c nothere.yaml
expect_rc 1
expect_err_line 'DATE reading filter configuration: open nothere.yaml: no such file or directory'

run_opm alpha filter cat
expect_rc 1
grep -q '^Error: required flag(s) "config" not set$' err || fail "expected the required flag error: $(cat err)"

run_opm alpha filter nowhere -c one.yaml
expect_rc 1
expect_text out ''

# A package that does not validate fails only when it is kept.
cp -r cat broken
sed -i 's/^- name: cockroach.v1.0.0$/- name: cockroach.v9.9.9/' broken/cockroach/catalog.yaml
run_opm alpha filter broken -c "$F/heads.yaml"
expect_rc 1
expect_text out ''
expect_err_line 'DATE broken/cockroach/catalog.yaml:6: the filtered catalog is not valid: no olm.bundle blobs found in package "cockroach" for olm.channel entries [cockroach.v9.9.9]'
run_opm alpha filter broken -c "$F/range.yaml" -o yaml
expect_rc 0
expect_file out "$F/expected/range.yaml"
