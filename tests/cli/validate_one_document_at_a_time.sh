#!/usr/bin/env bash
# A catalog file is read a document at a time: each document is checked (and its manifests
# let go) as soon as it is decoded, so a file of many large bundles never has all of them
# decoded at once. validate's peak memory grows with the largest document, not with the file.
source "$OPM_TESTS/cli/lib/common.bash"

# make_catalog DIR BUNDLES ANNOTATIONS: one YAML file of BUNDLES packages, each with one bundle
# whose olm.csv.metadata carries ANNOTATIONS annotations.
make_catalog() {
  mkdir -p "$1"
  python3 - "$1/catalog.yaml" "$2" "$3" <<'PY'
import sys
path, bundles, annotations = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "w") as f:
    for b in range(bundles):
        name = f"p{b:03}"
        f.write(f"---\nschema: olm.package\nname: {name}\ndefaultChannel: stable\n")
        f.write(f"---\nschema: olm.channel\npackage: {name}\nname: stable\n"
                f"entries:\n- name: {name}.v1.0.0\n")
        f.write(f"---\nschema: olm.bundle\npackage: {name}\nname: {name}.v1.0.0\n"
                f"image: quay.io/example/{name}:v1.0.0\nproperties:\n"
                f"- type: olm.package\n  value:\n    packageName: {name}\n    version: 1.0.0\n"
                f"- type: olm.csv.metadata\n  value:\n    displayName: {name}\n    annotations:\n")
        for i in range(annotations):
            f.write(f"      {name}-key-{i:06}: value {i}\n")
PY
}

# peak_kb ARGS...: opm's peak resident memory, in kB, for `opm ARGS` (which must succeed).
peak_kb() {
  python3 - "$OPM" "$@" <<'PY'
import os, resource, subprocess, sys
status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
if status != 0:
    sys.exit(f"opm {' '.join(sys.argv[2:])} exited {status}")
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}

# A sanitizer build takes about three times the memory for the same data, and holds freed
# blocks back for a while (kept to 16 MB here, so that freed trees are reused as they would be).
scale=1
[[ $(ldd "$OPM" 2>/dev/null || true) == *libasan* ]] && scale=3
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"

make_catalog small 80 10
make_catalog large 80 5000
small_kb=$(peak_kb validate small) || fail "validate of the small catalog failed"
large_kb=$(peak_kb validate large) || fail "validate of the large catalog failed"
grown_kb=$((large_kb - small_kb))
# The large file is 13.5 MB. Read a bundle at a time, the peak grows by about that (the file's
# text) and one decoded bundle; its eighty bundles decoded at once would grow it by 47 MB.
[ "$grown_kb" -lt $((28672 * scale)) ] ||
  fail "validate's peak memory grew by ${grown_kb} kB with the larger bundles"

# The documents are still all checked: a problem in the last bundle is found.
make_catalog broken 40 10
sed -i '$a\- type: olm.package\n  value:\n    packageName: 42\n    version: 1.0.0' broken/catalog.yaml
run_opm validate broken
expect_rc 1
expect_err_line 'time="T" level=fatal msg="broken/catalog.yaml:1338: parse properties for bundle \"p039.v1.0.0\": parse property[2] of type \"olm.package\": json: cannot unmarshal number into Go struct field Package.packageName of type string"'
echo ok
