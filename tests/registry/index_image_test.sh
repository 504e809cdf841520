#!/usr/bin/env bash
# opm index add|rm|prune|prune-stranded|deprecatetruncate without a container engine
# (--build-tool none, --container-tool none, or neither podman nor docker on PATH): the index
# image is built from the binary image and the database and pushed to --tag, or written as an
# OCI layout or a docker archive. Pulled back it renders as the database it was built from;
# its config and database layer are what upstream's index Dockerfile describes.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
SQL=$OPM_TESTS/data/sqlite
push_sqlite_bundles
images=$SQLITE_BUNDLES
for golden in kiwi kiwi-rm-plum kiwi-prune-plum; do
  sed "s#127.0.0.1:5231#$REG#g" "$SQL/render/$golden.json" > "$WORK/$golden.json"
done

BASE=$WORK/base
mkdir -p "$BASE/bin"
printf '#!/bin/sh\necho base opm\n' > "$BASE/bin/opm"
chmod 0755 "$BASE/bin/opm"
push_image "$R" ops/opm-base v1 --files "$BASE" --label base=yes > /dev/null
read -r D_AMD S_AMD T_AMD < <(push_image "$R" ops/multi-base amd64 --files "$BASE" --arch amd64)
read -r D_ARM S_ARM T_ARM < <(push_image "$R" ops/multi-base arm64 --files "$BASE" --arch arm64 --variant v8)
"${IMAGETOOL[@]}" index "$R" ops/multi-base v1 --entry "$D_AMD,$S_AMD,$T_AMD,linux/amd64" \
  --entry "$D_ARM,$S_ARM,$T_ARM,linux/arm64/v8" > /dev/null

layout_json() { # LAYOUT_DIR WHAT: the top manifest, or the config of the layout's only image
  python3 - "$@" << 'PY'
import json, os, sys
root, what = sys.argv[1], sys.argv[2]
blob = lambda d: json.load(open(os.path.join(root, "blobs", *d.split(":"))))
top = blob(json.load(open(os.path.join(root, "index.json")))["manifests"][0]["digest"])
print(json.dumps(top if what == "manifest" else blob(top["config"]["digest"]), sort_keys=True))
PY
}
last_layer_listing() { # LAYOUT_DIR: `tar -tv` of the last layer of the layout's only image
  python3 - "$1" << 'PY'
import json, os, sys, tarfile
root = sys.argv[1]
blob = lambda d: os.path.join(root, "blobs", *d.split(":"))
top = json.load(open(os.path.join(root, "index.json")))["manifests"][0]
m = json.load(open(blob(top["digest"])))
with tarfile.open(blob(m["layers"][-1]["digest"])) as t:
    for e in t.getmembers():
        print("%s %o %d:%d %s %d" % ("d" if e.isdir() else "f", e.mode, e.uid, e.gid, e.name, e.mtime))
PY
}
renders_as() { # REF GOLDEN
  "$OPM" render --use-http "$1" -o json > "$WORK/rendered.json" 2> "$WORK/render.err" &&
    cmp -s "$WORK/rendered.json" "$2"
}

# --- push to a registry -------------------------------------------------------------------
mkdir "$WORK/push" && cd "$WORK/push"
expect_ok "index add --build-tool none builds and pushes the image" \
  index add --use-http -b "$images" -u none -i "$REG/ops/opm-base:v1" -t "$REG/ops/index:v1"
check "the build logged with the image's digest" \
  grep -qE "level=info msg=\"built the index image\" .*tag=\"?$REG/ops/index:v1\"? digest=\"?sha256:[0-9a-f]{64}" "$WORK/err"
check "nothing is left in the working directory" test -z "$(ls -A)"
check "the pushed image renders as upstream's database" renders_as "$REG/ops/index:v1" "$WORK/kiwi.json"
expect_ok "labels of the pushed image" __pull --use-http --no-cache --labels "$REG/ops/index:v1"
check "the base's labels and the database label" \
  out_has '{"base":"yes","operators.operatorframework.io.index.database.v1":"/database/index.db"}'
rm -rf "$WORK/u"
expect_ok "unpack the pushed image" __pull --use-http --no-cache --unpack "$WORK/u" "$REG/ops/index:v1"
check "the base's files are there" cmp -s "$BASE/bin/opm" "$WORK/u/bin/opm"
check "the database is at /database/index.db" renders_as "$WORK/u/database/index.db" "$WORK/kiwi.json"

expect_ok "index rm -c none from the pushed image" index rm --use-http -f "$REG/ops/index:v1" -o plum \
  -c none -i "$REG/ops/opm-base:v1" -t "$REG/ops/index:v2"
check "the new image lacks plum" renders_as "$REG/ops/index:v2" "$WORK/kiwi-rm-plum.json"

# --- no container engine on PATH ----------------------------------------------------------
# A PATH with the few tools the assertions use on failure, and no container engine.
mkdir -p "$WORK/no-engine" "$WORK/engine-bin"
for tool in sed tail grep; do ln -s "$(command -v "$tool")" "$WORK/engine-bin/$tool"; done
cd "$WORK/no-engine"
PATH=$WORK/engine-bin expect_ok "index prune with neither podman nor docker installed" \
  index prune --use-http -f "$REG/ops/index:v1" -p plum -i "$REG/ops/opm-base:v1" -t "oci:$WORK/pruned:v1"
check "the OCI layout renders with only plum" renders_as "oci:$WORK/pruned:v1" "$WORK/kiwi-prune-plum.json"
PATH=$WORK/engine-bin expect_ok "index add with neither podman nor docker installed" \
  index add --use-http -b "$images" -i "$REG/ops/opm-base:v1" -t "oci:$WORK/added:v1"
check "its OCI layout renders as upstream's database" renders_as "oci:$WORK/added:v1" "$WORK/kiwi.json"
check "nothing is left in the working directory" test -z "$(ls -A)"

SOURCE_DATE_EPOCH=86400 expect_ok "index prune-stranded into a docker archive" \
  index prune-stranded --use-http -c none -f "$REG/ops/index:v1" -i "$REG/ops/opm-base:v1" \
  -t "docker-archive:$WORK/index.tar"
check "the archive renders as its database" renders_as "docker-archive:$WORK/index.tar" "$WORK/kiwi.json"

# --- what the Dockerfile describes ------------------------------------------------------------
SOURCE_DATE_EPOCH=86400 expect_ok "index add into an OCI layout" \
  index add --use-http -b "$REG/test/plum-bundle:v1.0.0" -u none -i "$REG/ops/opm-base:v1" -t "oci:$WORK/layout:v1"
layout_json "$WORK/layout" config > "$WORK/config.json"
config_has() { python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$WORK/config.json" "$1"; }
check "ENTRYPOINT [\"/bin/opm\"]" config_has 'c["config"]["Entrypoint"] == ["/bin/opm"]'
check "CMD registry serve of the database" \
  config_has 'c["config"]["Cmd"] == ["registry", "serve", "--database", "/database/index.db"]'
check "EXPOSE 50051" config_has 'c["config"]["ExposedPorts"] == {"50051/tcp": {}}'
check "LABEL of the database" \
  config_has 'c["config"]["Labels"]["operators.operatorframework.io.index.database.v1"] == "/database/index.db"'
check "created at SOURCE_DATE_EPOCH" config_has 'c["created"] == "1970-01-02T00:00:00Z"'
check "one history entry per instruction, one with a layer" \
  config_has '[h["created_by"] for h in c["history"][-5:]] == ["LABEL operators.operatorframework.io.index.database.v1=/database/index.db", "ADD database/index.db /database/index.db", "EXPOSE 50051", "ENTRYPOINT [\"/bin/opm\"]", "CMD [\"registry\", \"serve\", \"--database\", \"/database/index.db\"]"] and [h.get("empty_layer", False) for h in c["history"][-5:]] == [True, False, True, True, True]'
check "the base's layer and the database layer" \
  config_has 'len(c["rootfs"]["diff_ids"]) == 2'
check "the database layer: /database and index.db, owned by root, dated SOURCE_DATE_EPOCH" \
  test "$(last_layer_listing "$WORK/layout")" = "$(printf '%s\n' 'd 755 0:0 database 86400' 'f 644 0:0 database/index.db 86400')"

built_digest() { grep -oE 'digest="?sha256:[0-9a-f]{64}' "$WORK/err" | grep -oE 'sha256:[0-9a-f]{64}'; }
first=$(built_digest)
rm -rf "$WORK/layout"
SOURCE_DATE_EPOCH=86400 expect_ok "the same index built again" \
  index add --use-http -b "$REG/test/plum-bundle:v1.0.0" -u none -i "$REG/ops/opm-base:v1" -t "oci:$WORK/layout:v1"
check "with SOURCE_DATE_EPOCH the same bundles give the same image" test "$(built_digest)" = "$first"
mkdir "$WORK/epoch" && cd "$WORK/epoch"
SOURCE_DATE_EPOCH=86400 expect_ok "index add --generate with SOURCE_DATE_EPOCH" \
  index add --use-http --generate -b "$REG/test/plum-bundle:v1.0.0"
check "the database records its migration at SOURCE_DATE_EPOCH" test "$(python3 -c '
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("select timestamp from schema_migrations").fetchone()[0])' \
  database/index.db)" = "1970-01-02 00:00:00"

expect_ok "a multi-platform binary image gives a multi-platform index image" \
  index add --use-http -b "$REG/test/plum-bundle:v1.0.0" -u none -i "$REG/ops/multi-base:v1" -t "oci:$WORK/multi:v1"
check "an index of both platforms" test "$(layout_json "$WORK/multi" manifest |
  python3 -c 'import json, sys; print(" ".join(m["platform"]["architecture"] for m in json.load(sys.stdin)["manifests"]))')" = "amd64 arm64"

# --- failures -----------------------------------------------------------------------------------
mkdir "$WORK/fail" && cd "$WORK/fail"
expect_fail "building without a tool needs --tag" \
  "Error: building the index image without a container tool needs --tag: a registry reference, oci:DIR[:TAG] or docker-archive:FILE" \
  index add -b "" -u none
expect_fail "a binary image that cannot be pulled" "ops/missing" \
  index add --use-http -b "" -u none -i "$REG/ops/missing:v1" -t "$REG/ops/index:v3"
check "nothing is left in the working directory" test -z "$(ls -A)"
check "the registry has no such tag" \
  bash -c '! "$1" __pull --use-http --no-cache --labels "$2" > /dev/null 2>&1' _ "$OPM" "$REG/ops/index:v3"
check "no temporary directory is left" tmp_empty

finish
