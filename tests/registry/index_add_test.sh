#!/usr/bin/env bash
# opm index add|rm|prune|prune-stranded with --generate: the database in ./database/index.db
# renders as upstream's, the Dockerfile is upstream's text, --from-index starts from the
# database an index image's label names, and nothing temporary is left behind.
source "$(dirname "$0")/harness.sh"

start_registry plain
R=http://$REG
SQL=$OPM_TESTS/data/sqlite
push_sqlite_bundles
images=$SQLITE_BUNDLES
sed "s#127.0.0.1:5231#$REG#g" "$SQL/render/kiwi.json" > "$WORK/expected.json"
dockerfile() { # ADD_SOURCE [FROM]
  printf '%s\n' "FROM ${2:-quay.io/operator-framework/opm:latest}" \
    'LABEL operators.operatorframework.io.index.database.v1=/database/index.db' \
    "ADD $1 /database/index.db" 'EXPOSE 50051' 'ENTRYPOINT ["/bin/opm"]' \
    'CMD ["registry", "serve", "--database", "/database/index.db"]'
}
only_outputs() { # FILE...: the working directory holds exactly these
  test "$(ls -A | sort | tr '\n' ' ')" = "$(printf '%s\n' "$@" | sort | tr '\n' ' ')"
}

mkdir "$WORK/gen" && cd "$WORK/gen"
expect_ok "index add --generate" index add --use-http --generate -b "$images"
check "the deprecation notice logged" err_has "DEPRECATION NOTICE:"
check "building logged with the bundles" \
  err_has "level=info msg=\"building the index\" bundles=\"[${images//,/ }]\""
# Upstream parses every bundle twice (as it unpacks it, then before loading) and logs the
# metadata files it misses each time: kiwi 0.1.0 and 0.2.0 have no properties file, kiwi 0.3.0
# has both, plum neither.
missing_files() {
  grep 'Could not find optional' "$WORK/err" | sed -E 's/^time="[^"]*" //; s/bundle_tmp[0-9]+/bundle_tmpN/g'
}
missing_line() { # KIND
  echo "level=info msg=\"Could not find optional $1 file\" file=bundle_tmpN/metadata load=annotations with=./bundle_tmpN"
}
pass=$(missing_line properties; missing_line properties; missing_line dependencies; missing_line properties)
check "each bundle's missing metadata files logged twice, in order" \
  test "$(missing_files)" = "$(printf '%s\n%s' "$pass" "$pass")"
check "the fields name the bundle's unpack directory in the current directory" \
  test "$(grep -cE 'file=(bundle_tmp[0-9]+)/metadata load=annotations with=\./\1$' "$WORK/err")" = 8
check "the Dockerfile as upstream writes it" cmp -s index.Dockerfile <(dockerfile database/index.db)
mkdir "$WORK/requests" && (cd "$WORK/requests" && OPM_NO_CACHE=1 OPM_DEBUG_REGISTRY=1 "$OPM" index add --use-http \
  --generate -b "$REG/test/plum-bundle:v1.0.0" 2> "$WORK/requests.err")
check "a bundle costs its manifest and its one layer, not its config" test \
  "$(grep -oE 'GET http://[^ ]*/v2/test/plum-bundle/(manifests|blobs)/[^ ]*' "$WORK/requests.err" |
    sed -E 's#.*/(manifests|blobs)/.*#\1#' | tr '\n' ' ')" = "manifests blobs "
"$OPM" render database/index.db > "$WORK/rendered.json" 2> /dev/null
check "the database renders as upstream's" cmp -s "$WORK/rendered.json" "$WORK/expected.json"
check "only the database and the Dockerfile are left" only_outputs database index.Dockerfile

expect_ok "-d names the Dockerfile, -i its base image" \
  index add --use-http --generate -b "$REG/test/plum-bundle:v1.0.0" -d my.Dockerfile -i example.com/opm:v1
check "FROM the binary image" cmp -s my.Dockerfile <(dockerfile database/index.db example.com/opm:v1)

IMG=$WORK/index-image
mkdir -p "$IMG/database"
cp "$SQL/kiwi.db" "$IMG/database/index.db"
push_image "$R" ops/index v1 --files "$IMG" \
  --label operators.operatorframework.io.index.database.v1=/database/index.db > /dev/null
push_image "$R" ops/fbc v1 --files "$IMG" \
  --label operators.operatorframework.io.index.configs.v1=/configs > /dev/null
push_image "$R" ops/plain v1 --files "$IMG" > /dev/null

mkdir "$WORK/rm" && cd "$WORK/rm"
expect_ok "index rm --from-index" index rm --use-http --generate -f "$REG/ops/index:v1" -o plum
check "the pull logged" err_has "msg=\"Pulling previous image $REG/ops/index:v1 to get metadata\""
check "the stranded bundles' removal logged as upstream logs it" \
  grep -qE '^time="[^"]+" level=info msg="removing stranded bundles "$' "$WORK/err"
"$OPM" render database/index.db > "$WORK/rendered.json" 2> /dev/null
check "plum removed as upstream removes it" cmp -s "$WORK/rendered.json" "$SQL/render/kiwi-rm-plum.json"
check "no unpacked image left" only_outputs database index.Dockerfile

# prune and prune-stranded pull with podman or docker, as upstream's do; a database file is
# taken as it is.
cp "$SQL/kiwi.db" "$WORK/source.db"
expect_ok "index prune of a database file" index prune --generate -f "$WORK/source.db" -p plum,zzz
check "the source file untouched" cmp -s "$WORK/source.db" "$SQL/kiwi.db"
"$OPM" render database/index.db > "$WORK/rendered.json" 2> /dev/null
check "only plum kept" cmp -s "$WORK/rendered.json" "$SQL/render/kiwi-prune-plum.json"

expect_ok "index prune-stranded" index prune-stranded --generate -f "$WORK/source.db"
check "the removal logged as upstream logs it" \
  grep -qE '^time="[^"]+" level=info msg="removing stranded bundles "$' "$WORK/err"
"$OPM" render database/index.db > "$WORK/rendered.json" 2> /dev/null
check "nothing stranded: the index unchanged" cmp -s "$WORK/rendered.json" "$SQL/render/kiwi.json"

expect_ok "index add --bundles '' upgrades and regenerates" \
  index add --use-http --generate -b "" -f "$REG/ops/index:v1"
"$OPM" render database/index.db > "$WORK/rendered.json" 2> /dev/null
check "the index unchanged" cmp -s "$WORK/rendered.json" "$SQL/render/kiwi.json"

expect_fail "index rm of an unknown package is fatal" \
  'level=fatal msg="permissive mode disabled" error="error deleting packages from database: error removing operator package nope: no package found for packagename nope"' \
  index rm --use-http --generate -f "$REG/ops/index:v1" -o nope
check "exit code 1" test "$RC" = 1
expect_fail "a file-based catalog image" \
  'Error: `opm index prune` only supports sqlite-based catalogs.' \
  index rm --use-http --generate -f "$REG/ops/fbc:v1" -o plum
expect_fail "an image without the database label" \
  "Error: index image $REG/ops/plain:v1 missing label operators.operatorframework.io.index.database.v1" \
  index add --use-http --generate -b "" -f "$REG/ops/plain:v1"
# Podman is the default tool as long as one container engine is installed (builds without
# one: index_image_test.sh).
mkdir -p "$WORK/docker-only"
printf '#!/bin/sh\nexit 1\n' > "$WORK/docker-only/docker"
chmod +x "$WORK/docker-only/docker"
for tool in sed tail grep; do ln -s "$(command -v "$tool")" "$WORK/docker-only/$tool"; done
PATH=$WORK/docker-only expect_fail "prune without podman but with docker" \
  'exec: "podman": executable file not found in $PATH' \
  index prune --generate -f "$REG/ops/index:v1" -p plum
expect_fail "add with -c and -p" \
  "Error: container-tool cannot be set alongside pull-tool or build-tool" \
  index add --generate -b "" -c podman -p docker
expect_fail "an unknown mode" "Error: Invalid channel update mode fast specified" \
  index add --generate -b "" --mode fast
expect_fail "rm needs --operators" 'Error: required flag(s) "operators" not set' \
  index rm -f "$REG/ops/index:v1"
check "the deprecation notice comes first" grep -q 'DEPRECATION NOTICE' <(head -n 1 "$WORK/err")
expect_fail "export needs --index" 'Error: required flag(s) "index" not set' index export

# References the registry has nothing under fail with upstream's texts: a bundle with its
# resolver's error for the pull and its store's for the unpack, an index image with the first.
mkdir "$WORK/missing" && cd "$WORK/missing"
expect_fail "a bundle image that is not there" \
  "Error: [error resolving name for image ref $REG/test/kiwi-bundle:missing: $REG/test/kiwi-bundle:missing: not found, image \"$REG/test/kiwi-bundle:missing\": not found]" \
  index add --use-http --generate -b "$REG/test/kiwi-bundle:missing"
check "exit code 1" test "$RC" = 1
expect_fail "an index image that is not there" \
  "Error: error resolving name for image ref $REG/ops/index:missing: $REG/ops/index:missing: not found" \
  index add --use-http --generate -b "$REG/test/plum-bundle:v1.0.0" -f "$REG/ops/index:missing"
check "exit code 1" test "$RC" = 1
expect_fail "an index image of a repository that is not there" \
  "Error: error resolving name for image ref $REG/ops/nothing:v1: $REG/ops/nothing:v1: not found" \
  index rm --use-http --generate -f "$REG/ops/nothing:v1" -o plum

mkdir "$WORK/again" && cd "$WORK/again"
expect_fail "a CSV already in the index exits 3" \
  "Error: Bundle already added that provides package and csv" \
  index add --use-http --generate -b "$REG/test/plum-bundle:v1.0.0" -f "$REG/ops/index:v1"
check "exit code 3" test "$RC" = 3

# export: the manifests of each bundle by package and version, and a package.yaml.
mkdir -p "$WORK/built" && (cd "$WORK/built" && "$OPM" index add --use-http --generate -b "$images" 2> /dev/null)
push_image "$R" ops/built v1 --files "$WORK/built" \
  --label operators.operatorframework.io.index.database.v1=/database/index.db > /dev/null
mkdir "$WORK/export" && cd "$WORK/export"
expect_ok "index export of one package" index export --use-http -i "$REG/ops/built:v1" -p kiwi -f out
check "export logged" err_has "level=info msg=\"export from the index\" index=\"$REG/ops/built:v1\" package=\"[kiwi]\""
for v in 0.1.0 0.2.0 0.3.0; do
  check "kiwi $v manifests" diff -r out/kiwi/$v "$SQL/bundles/kiwi-$v/manifests"
done
check "package.yaml as upstream writes it" cmp -s out/kiwi/package.yaml \
  <(printf '%s\n' 'packageName: kiwi' 'channels:' '- name: candidate' '  currentCSV: kiwi.v0.3.0' \
    '- name: stable' '  currentCSV: kiwi.v0.2.0' 'defaultChannel: candidate')
check "only kiwi exported, nothing temporary left" test "$(ls -A . out | tr '\n' ' ')" = ".: out  out: kiwi "
expect_fail "-p with -o" "Error: cannot simultaneously set '-p' and '-o' flags, remove '-o'" \
  index export -i "$REG/ops/built:v1" -p kiwi -o plum

# Without --generate the image is built by the build tool (here a stand-in that records its
# arguments and the Dockerfile), in a temporary context that is removed afterwards.
mkdir -p "$WORK/bin" "$WORK/build" && cd "$WORK/build"
cat > "$WORK/bin/podman" << 'TOOL'
#!/usr/bin/env bash
echo "$*" > "$BUILD_LOG"
while [ $# -gt 0 ]; do [ "$1" = -f ] && cp "$2" "$BUILD_LOG.dockerfile"; shift; done
TOOL
chmod +x "$WORK/bin/podman"
export BUILD_LOG=$WORK/build.log
PATH=$WORK/bin:$PATH expect_ok "index add builds with podman" \
  index add --use-http -b "$REG/test/plum-bundle:v1.0.0" -t example.com/idx:v2
check "podman build as upstream calls it" \
  grep -qE '^build --format docker -f \./index\.Dockerfile[0-9]+ -t example\.com/idx:v2 \.$' "$BUILD_LOG"
check "the Dockerfile adds the temporary context's database" \
  grep -qE '^ADD index_build_tmp[^ /]+/database/index\.db /database/index\.db$' "$BUILD_LOG.dockerfile"
check "the build context and Dockerfile removed" test -z "$(ls -A)"

# With a container tool, the index image is pulled, inspected and copied out of a container
# with it, as upstream runs podman: pull, pull, inspect, create, cp, rm.
cat > "$WORK/bin/podman" << 'TOOL'
#!/usr/bin/env bash
echo "$*" >> "$TOOL_LOG"
case $1 in
  pull) ;;
  inspect) echo '[{"Labels": {"operators.operatorframework.io.index.database.v1": "/database/index.db"}}]' ;;
  create) echo "c0ffee" ;;
  cp) mkdir -p "$3/database" && cp "$TOOL_DB" "$3/database/index.db" ;;
  rm) ;;
  *) exit 1 ;;
esac
TOOL
export TOOL_LOG=$WORK/tool.log TOOL_DB=$SQL/kiwi.db
mkdir -p "$WORK/tool" && cd "$WORK/tool"
PATH=$WORK/bin:$PATH expect_ok "index prune pulls with podman" \
  index prune --use-http --generate -f example.com/ops/index:v1 -p plum
check "podman's commands as upstream runs them" grep -qE \
  '^(pull --tls-verify=false example.com/ops/index:v1;){2}inspect example.com/ops/index:v1;create example.com/ops/index:v1 ;cp c0ffee:/\. \./index_tmp_[0-9]+;rm c0ffee;$' \
  <(tr '\n' ';' < "$TOOL_LOG")
"$OPM" render database/index.db > "$WORK/rendered.json" 2> /dev/null
check "only plum kept" cmp -s "$WORK/rendered.json" "$SQL/render/kiwi-prune-plum.json"
check "nothing temporary left" only_outputs database index.Dockerfile

# --enable-alpha: kiwi.v0.2.0-1 (0.2.0+1) substitutes for kiwi.v0.2.0, so kiwi.v0.3.0 now
# replaces it and it skips the bundle it stands in for (upstream v1.26.5 renders the same).
substitute=$WORK/kiwi-substitute
cp -r "$SQL/bundles/kiwi-0.2.0" "$substitute"
sed -i -e 's/^  name: kiwi.v0.2.0$/  name: kiwi.v0.2.0-1/' -e 's/^  version: 0.2.0$/  version: 0.2.0+1/' \
  -e 's/^  annotations:$/  annotations:\n    olm.substitutesFor: kiwi.v0.2.0/' \
  "$substitute/manifests/kiwi.clusterserviceversion.yaml"
push_bundle_image "$substitute" test/kiwi-bundle v0.2.0-1
kiwis=$REG/test/kiwi-bundle:v0.1.0,$REG/test/kiwi-bundle:v0.2.0,$REG/test/kiwi-bundle:v0.3.0
kiwis=$kiwis,$REG/test/kiwi-bundle:v0.2.0-1
mkdir -p "$WORK/alpha-off" && cd "$WORK/alpha-off"
expect_fail "a substitute needs --enable-alpha" \
  "SubstitutesFor is an alpha-only feature. You must enable alpha features with the flag --enable-alpha in order to use this feature." \
  index add --use-http --generate -b "$kiwis"
mkdir -p "$WORK/alpha" && cd "$WORK/alpha"
expect_ok "index add --enable-alpha" index add --use-http --generate --enable-alpha -b "$kiwis"
"$OPM" render database/index.db -o yaml > "$WORK/alpha.yaml" 2> /dev/null
check "the substitute's channel entry replaces 0.1.0 and skips 0.2.0" test \
  "$(grep -A4 -x -- '- name: kiwi.v0.2.0-1' "$WORK/alpha.yaml" | head -n 5 | tr '\n' ';')" = \
  "- name: kiwi.v0.2.0-1;  replaces: kiwi.v0.1.0;  skipRange: <0.2.0;  skips:;  - kiwi.v0.2.0;"
check "kiwi.v0.3.0 replaces the substitute" grep -qx '  replaces: kiwi.v0.2.0-1' "$WORK/alpha.yaml"

# A bundle substituting for itself is refused with the loop, as latest upstream refuses it
# (v1.26.5 grew its skips until memory ran out); the index it started from is unchanged.
self=$WORK/kiwi-self
cp -r "$substitute" "$self"
sed -i -e 's/kiwi.v0.2.0-1$/kiwi.v0.2.0-self/' -e 's/substitutesFor: kiwi.v0.2.0$/substitutesFor: kiwi.v0.2.0-self/' \
  "$self/manifests/kiwi.clusterserviceversion.yaml"
push_bundle_image "$self" test/kiwi-bundle v0.2.0-self
cp database/index.db "$WORK/alpha.db"
cp database/index.db "$WORK/alpha-pristine.db"
mkdir -p "$WORK/alpha-self" && cd "$WORK/alpha-self"
expect_fail "a bundle substituting for itself" \
  'Error: failed to add substitutes : cyclic substitutesFor chain detected involving "kiwi.v0.2.0-self": kiwi.v0.2.0-self -> kiwi.v0.2.0-self' \
  index add --use-http --generate --enable-alpha -f "$WORK/alpha.db" -b "$REG/test/kiwi-bundle:v0.2.0-self"
check "exit code 1" test "$RC" = 1
check "the index it started from is unchanged" cmp -s "$WORK/alpha.db" "$WORK/alpha-pristine.db"
check "no database is left behind" test ! -e database

finish
