#!/usr/bin/env bash
# A catalog laid out as one directory per package is loaded a directory at a time: the peak
# memory holds a package or two of decoded documents besides the answers, not the whole
# catalog's.
# A package spread over directories is still served, and a catalog that does not validate
# fails with the same message as when it is loaded whole.
source "$OPM_TESTS/serve/lib/common.bash"
measure_memory

# make_package DIR PACKAGE ANNOTATIONS [BUNDLE_DIR]: a package with one bundle carrying
# olm.csv.metadata with that many annotations, the bundle in BUNDLE_DIR when given.
make_package() {
  mkdir -p "$1/$2" "$1/${4:-$2}"
  "$PYTHON" - "$1/$2/package.json" "$1/${4:-$2}/bundle.json" "$2" "$3" <<'PY'
import json, sys
package_path, bundle_path, name, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
with open(package_path, "w") as f:
    f.write(json.dumps({"schema": "olm.package", "name": name, "defaultChannel": "stable"}) + "\n")
    f.write(json.dumps({"schema": "olm.channel", "package": name, "name": "stable",
                        "entries": [{"name": f"{name}.v1.0.0"}]}) + "\n")
annotations = {f"{name}-key-{i:06}": f"value {i}" for i in range(count)}
with open(bundle_path, "a") as f:
    f.write(json.dumps({"schema": "olm.bundle", "package": name, "name": f"{name}.v1.0.0",
                        "image": f"quay.io/{name}/bundle:v1.0.0",
                        "properties": [
                            {"type": "olm.package", "value": {"packageName": name, "version": "1.0.0"}},
                            {"type": "olm.csv.metadata",
                             "value": {"displayName": name, "annotations": annotations}}]}) + "\n")
PY
}

for p in p{1..16}; do
  make_package small "$p" 10
  make_package large "$p" 20000
done
start_server small -t /dev/null
small_kb=$(peak_kb)
stop_server
start_server large -t /dev/null
large_kb=$(peak_kb)
call api.Registry/GetBundle '{"pkgName":"p5","channelName":"stable","csvName":"p5.v1.0.0"}' >bundle.json
stop_server
expect_rc 0
grown_kb=$((large_kb - small_kb))
# The answers alone hold 10 MB of annotations, and grow the peak by about 16 MB; the sixteen
# packages' documents held at once grow it by about 31 MB.
[ "$grown_kb" -lt $((24576 * $(memory_scale))) ] || fail "peak memory grew by ${grown_kb} kB with the large packages"
"$PYTHON" -c '
import json, sys
csv = json.loads(json.loads(open(sys.argv[1]).read())["csvJson"])
assert len(csv["metadata"]["annotations"]) == 20000
assert csv["metadata"]["annotations"]["p5-key-019999"] == "value 19999"
' bundle.json || fail "the bundle answer lacks its annotations"

# A directory of 1 MiB or more is loaded on a scratch heap of its own, smaller ones share
# one: answers from both are whole.
make_package mixed big 40000
make_package mixed little1 10
make_package mixed little2 10
[ "$(du -sb mixed/big | cut -f1)" -ge 1048576 ] || fail "the big package is under 1 MiB"
start_server mixed -t /dev/null
call api.Registry/GetBundle '{"pkgName":"big","channelName":"stable","csvName":"big.v1.0.0"}' >big.json
call api.Registry/GetBundle '{"pkgName":"little2","channelName":"stable","csvName":"little2.v1.0.0"}' >little.json
stop_server
expect_rc 0
"$PYTHON" -c '
import json, sys
for path, name, count in ((sys.argv[1], "big", 40000), (sys.argv[2], "little2", 10)):
    csv = json.loads(json.loads(open(path).read())["csvJson"])
    assert len(csv["metadata"]["annotations"]) == count, path
    assert csv["metadata"]["annotations"][f"{name}-key-{count - 1:06}"] == f"value {count - 1}"
' big.json little.json || fail "an answer of the mixed catalog lacks its annotations"

# A package whose bundle is in another package's directory.
make_package spread alpha 10
make_package spread beta 10 alpha
start_server spread -t /dev/null
call api.Registry/GetBundle '{"pkgName":"beta","channelName":"stable","csvName":"beta.v1.0.0"}' >beta.json
stop_server
expect_rc 0
grep -q '"csvName":"beta.v1.0.0"' beta.json || fail "beta's bundle is not served: $(cat beta.json)"

# One package defined in two directories.
make_package twice alpha 10
make_package twice beta 10
cp twice/alpha/package.json twice/beta/again.json
run_opm serve twice -t /dev/null
expect_rc 1
expect_err_line 'time="T" level=fatal msg="twice/beta/again.json:1: duplicate package \"alpha\""'
echo ok
