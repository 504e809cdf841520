#!/usr/bin/env bash
# A bundle's manifests are kept once however many answers carry them: the CSV made from
# olm.csv.metadata is both csvJson and the object, the same bundle is an entry of several
# channels, and the package icon is in every CSV made for the package. A catalog whose
# answers hold ~130 MB of manifests, ~7 MB of them different, is served within 45 MB more
# peak memory than a catalog of the same shape with small manifests, and answers in full.
source "$OPM_TESTS/serve/lib/common.bash"
measure_memory

# make_catalog DIR ICON_BYTES DESCRIPTION_BYTES: one package, 5 bundles, each in 4 channels.
make_catalog() {
  mkdir -p "$1/big"
  "$PYTHON" - "$1/big/catalog.json" "$2" "$3" <<'PY'
import base64, json, sys
path, icon_bytes, description_bytes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
icon = base64.b64encode(bytes(i % 251 for i in range(icon_bytes))).decode()
bundles = [f"big.v1.0.{i}" for i in range(5)]
docs = [{"schema": "olm.package", "name": "big", "defaultChannel": "stable",
         "icon": {"base64data": icon, "mediatype": "image/png"}}]
for channel in ["alpha", "beta", "candidate", "stable"]:
    entries = [{"name": bundles[0]}]
    entries += [{"name": b, "replaces": a} for a, b in zip(bundles, bundles[1:])]
    docs.append({"schema": "olm.channel", "package": "big", "name": channel, "entries": entries})
for i, name in enumerate(bundles):
    description = (f"bundle {i} " * (description_bytes // 9 + 1))[:description_bytes]
    docs.append({"schema": "olm.bundle", "package": "big", "name": name,
                 "image": f"quay.io/big/bundle:v1.0.{i}",
                 "properties": [
                     {"type": "olm.package", "value": {"packageName": "big", "version": f"1.0.{i}"}},
                     {"type": "olm.csv.metadata",
                      "value": {"displayName": "Big", "description": description}}]})
with open(path, "w") as f:
    for doc in docs:
        f.write(json.dumps(doc) + "\n")
PY
}

make_catalog small 100 100
start_server small -t /dev/null
small_kb=$(peak_kb)
stop_server
expect_rc 0

make_catalog large 1500000 1000000
start_server large -t /dev/null
large_kb=$(peak_kb)
call api.Registry/GetBundle '{"pkgName":"big","channelName":"beta","csvName":"big.v1.0.3"}' >bundle.json
stop_server
expect_rc 0

grown_kb=$((large_kb - small_kb))
[ "$grown_kb" -lt $((46080 * $(memory_scale))) ] || fail "peak memory grew by ${grown_kb} kB with the large manifests"

# The answer carries the whole CSV, icon and description included, as csvJson and object.
"$PYTHON" - bundle.json <<'PY' || fail "the bundle answer lacks its manifests"
import json, sys
answer = json.loads(open(sys.argv[1]).read())
csv = json.loads(answer["csvJson"])
assert answer["object"] == [answer["csvJson"]]
assert len(csv["spec"]["icon"][0]["base64data"]) == 2000000
assert csv["spec"]["description"].startswith("bundle 3 ") and len(csv["spec"]["description"]) == 1000000
assert csv["metadata"]["name"] == "big.v1.0.3" and csv["spec"]["version"] == "1.0.3"
PY
echo ok
