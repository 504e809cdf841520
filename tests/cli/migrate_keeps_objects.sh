#!/usr/bin/env bash
# opm migrate writes every object of a catalog, as latest upstream's WriteFS does: deprecations
# and objects of other schemas into their package's file, channels and bundles whose package has
# no olm.package into that package's directory, and package-less objects of other schemas into
# <out>/catalog.json. An object that names no package would be lost, so migrate refuses it.
source "$OPM_TESTS/cli/lib/common.bash"
MIXED="$OPM_TESTS/data/migrate/mixed"

run_opm migrate "$MIXED" migrated
expect_rc 0
diff -r migrated "$OPM_TESTS/data/migrate/mixed-out" >&2 || fail "the migrated catalog differs"
"$OPM" render "$MIXED" >render.json 2>/dev/null
cat migrated/bar/catalog.json migrated/foo/catalog.json migrated/catalog.json >joined.json
expect_file joined.json render.json

run_opm migrate "$MIXED" out-yaml -o yaml
expect_rc 0
"$OPM" render "$MIXED" -o yaml >render.yaml 2>/dev/null
cat out-yaml/bar/catalog.yaml out-yaml/foo/catalog.yaml out-yaml/catalog.yaml >joined.yaml
expect_file joined.yaml render.yaml
expect_eq "yaml files" "bar catalog.yaml foo" "$(ls out-yaml | tr '\n' ' ' | sed 's/ $//')"

nameless() { # SCHEMA OBJECT: a catalog whose second object names no package
  mkdir "$1"
  printf '%s\n' '{"schema":"olm.package","name":"kiwi","defaultChannel":"stable"}' "$2" >"$1/index.json"
}
nameless channel '{"schema":"olm.channel","name":"stable","entries":[{"name":"kiwi.v0.1.0"}]}'
run_opm migrate channel channel-out
expect_rc 1
normalized_err | tail -n 1 >err.last
expect_text err.last $'time="T" level=fatal msg="channel/index.json:2: cannot migrate olm.channel \\"stable\\": it names no package"\n'
[ -e channel-out ] && fail "a failed migrate left its output directory"

nameless bundle '{"schema":"olm.bundle","name":"kiwi.v0.1.0","image":"example.com/kiwi:v0.1.0"}'
run_opm migrate bundle bundle-out
expect_rc 1
normalized_err | tail -n 1 >err.last
expect_text err.last $'time="T" level=fatal msg="bundle/index.json:2: cannot migrate olm.bundle \\"kiwi.v0.1.0\\": it names no package"\n'

nameless deprecation '{"schema":"olm.deprecations","entries":[]}'
run_opm migrate deprecation deprecation-out
expect_rc 1
normalized_err | tail -n 1 >err.last
expect_text err.last $'time="T" level=fatal msg="deprecation/index.json:2: cannot migrate olm.deprecations: it names no package"\n'
[ -e deprecation-out ] && fail "a failed migrate left its output directory"
exit 0
