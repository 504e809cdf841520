#!/usr/bin/env bash
# Bundles that carry olm.csv.metadata instead of their CSV (catalogs for OpenShift 4.17 and
# later) are served as latest upstream serves them: a CSV made from the metadata in csvJson
# (and as the only object), the property left out of properties. Objects of other schemas
# are answered by api.ExperimentalRegistry to callers that send x-acknowledge-experimental,
# from the catalog and from the json cache alike.
source "$OPM_TESTS/serve/lib/common.bash"
FIXTURE="$DATA/csv-metadata"

# Every answer, then the experimental ones with and without the header.
answers() { # OUT
  run_calls "127.0.0.1:$PORT" "$FIXTURE/calls.txt" >"$1"
  CALL_METADATA="x-acknowledge-experimental: true" \
    run_calls "127.0.0.1:$PORT" "$FIXTURE/experimental_calls.txt" >>"$1"
  CALL_METADATA="x-acknowledge-experimental: yes" \
    run_calls "127.0.0.1:$PORT" <(head -1 "$FIXTURE/experimental_calls.txt") >>"$1"
}

start_server "$FIXTURE/catalog" -t /dev/null
answers answers.txt
expect_file answers.txt "$FIXTURE/answers.txt"
call reflection/list >services.txt
expect_text services.txt $'api.ExperimentalRegistry\napi.Registry\ngrpc.health.v1.Health\ngrpc.reflection.v1.ServerReflection\ngrpc.reflection.v1alpha.ServerReflection\n'
stop_server
expect_rc 0

# The json cache holds the same answers, and latest's files for the other objects.
run_opm serve "$FIXTURE/catalog" --cache-dir cache --cache-only -t /dev/null
expect_rc 0
(cd cache/cache && find metas | sort) >metas.txt
expect_file metas.txt "$FIXTURE/metas.txt"
expect_eq "stored object" '{"name":"support","package":"acme-operator","priority":2,"schema":"acme.notes"}' \
  "$(cat cache/cache/metas/acme.notes/acme-operator/7623a5143fadd612.json)"
start_server "$FIXTURE/catalog" --cache-dir cache -t /dev/null
answers cached.txt
expect_file cached.txt "$FIXTURE/answers.txt"
stop_server
expect_rc 0

# Two olm.csv.metadata on one bundle: start-up fails as upstream's conversion does.
mkdir twice
cat >twice/catalog.yaml <<'YAML'
---
defaultChannel: stable
name: twice
schema: olm.package
---
entries:
- name: twice.v1.0.0
name: stable
package: twice
schema: olm.channel
---
image: quay.io/twice/bundle:v1.0.0
name: twice.v1.0.0
package: twice
properties:
- type: olm.package
  value:
    packageName: twice
    version: 1.0.0
- type: olm.csv.metadata
  value:
    displayName: First
- type: olm.csv.metadata
  value:
    displayName: Second
schema: olm.bundle
YAML
run_opm serve twice -t /dev/null
expect_rc 1
expect_err_line 'time="T" level=fatal msg="parse properties: expected at most 1 property of type \"olm.csv.metadata\", found 2"'

# An object of another schema whose schema or package cannot be a file name.
mkdir -p badmeta
cp -r "$FIXTURE/catalog/plain-operator" badmeta/
printf '{"schema":"notes/v1","package":"plain-operator","text":"x"}\n' >badmeta/plain-operator/notes.json
run_opm serve badmeta -t /dev/null
expect_rc 1
expect_err_line 'time="T" level=fatal msg="invalid custom schema meta: invalid schema \"notes/v1\": must match ^[a-zA-Z0-9][a-zA-Z0-9._-]*$"'
echo ok
