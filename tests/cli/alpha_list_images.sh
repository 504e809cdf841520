#!/usr/bin/env bash
# opm alpha list images prints every bundle image and related image of a catalog once,
# sorted; with -o json each comes with the bundles that use it.
source "$OPM_TESTS/cli/lib/common.bash"

cp -r "$DATA/filter/catalog" cat
run_opm alpha list images cat
expect_rc 0
cat >"$WORK/expected" <<'TXT'
quay.io/example/cockroach-bundle:v1.0.0
quay.io/example/cockroach:v1.0.0
quay.io/example/etcd-bundle:v1.0.0
quay.io/example/etcd-bundle:v1.1.0
quay.io/example/etcd-bundle:v1.1.1
quay.io/example/etcd-bundle:v2.0.0
quay.io/example/etcd-bundle:v2.1.0
quay.io/example/etcd:v1.0.0
quay.io/example/etcd:v1.1.0
quay.io/example/etcd:v1.1.1
quay.io/example/etcd:v2.0.0
quay.io/example/etcd:v2.1.0
quay.io/example/proxy:v1
TXT
expect_file out "$WORK/expected"

run_opm alpha list images cat -o json
expect_rc 0
python3 - "$WORK/out" <<'PY' || fail "unexpected JSON listing: $(cat "$WORK/out")"
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["image"] for r in rows][-1] == "quay.io/example/proxy:v1"
proxy = rows[-1]["bundles"]
assert proxy[0] == {"package": "cockroach", "name": "cockroach.v1.0.0"}, proxy
assert [b["name"] for b in proxy[1:]] == ["etcd.v1.0.0", "etcd.v1.1.0", "etcd.v1.1.1", "etcd.v2.0.0", "etcd.v2.1.0"]
assert len(rows) == 13
PY

run_opm alpha list images cat -o xml
expect_rc 1
expect_err_line 'time="T" level=fatal msg="invalid --output value \"xml\", expected (text|json)"'

run_opm alpha list images nowhere
expect_rc 1
expect_text out ''
