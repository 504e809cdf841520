#!/usr/bin/env bash
# opm render of a catalog writes property values as read, as latest upstream does: an olm.gvk
# whose value is a string and an olm.csv.metadata whose value is a list come out unchanged
# (validate still reports both). A property entry the output could not carry (no value, or a
# member besides type and value) fails at its object's location instead of being changed.
source "$OPM_TESTS/cli/lib/common.bash"

mkdir -p shapes/foo
cat >shapes/foo/a.json <<'JSON'
{"schema":"olm.package","name":"foo","defaultChannel":"a"}
{"schema":"olm.channel","package":"foo","name":"a","entries":[{"name":"foo.v1"},{"name":"foo.v2","replaces":"foo.v1"}]}
{"schema":"olm.bundle","package":"foo","name":"foo.v1","image":"x","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"1.0.0"}},{"type":"olm.gvk","value":"g/v/k"}]}
{"schema":"olm.bundle","package":"foo","name":"foo.v2","image":"y","properties":[{"type":"olm.csv.metadata","value":[1]},{"type":"olm.package","value":{"packageName":"foo","version":"2.0.0"}}]}
JSON
run_opm render shapes
expect_rc 0
expect_text out '{
    "schema": "olm.package",
    "name": "foo",
    "defaultChannel": "a"
}
{
    "schema": "olm.channel",
    "name": "a",
    "package": "foo",
    "entries": [
        {
            "name": "foo.v1"
        },
        {
            "name": "foo.v2",
            "replaces": "foo.v1"
        }
    ]
}
{
    "schema": "olm.bundle",
    "name": "foo.v1",
    "package": "foo",
    "image": "x",
    "properties": [
        {
            "type": "olm.package",
            "value": {
                "packageName": "foo",
                "version": "1.0.0"
            }
        },
        {
            "type": "olm.gvk",
            "value": "g/v/k"
        }
    ]
}
{
    "schema": "olm.bundle",
    "name": "foo.v2",
    "package": "foo",
    "image": "y",
    "properties": [
        {
            "type": "olm.package",
            "value": {
                "packageName": "foo",
                "version": "2.0.0"
            }
        },
        {
            "type": "olm.csv.metadata",
            "value": [
                1
            ]
        }
    ]
}
'
[ -s err ] && fail "unexpected stderr: $(cat err)"
run_opm render shapes -o yaml
expect_rc 0
grep -qx -- '- type: olm.gvk' out && grep -qx '  value: g/v/k' out || fail "gvk string lost in yaml: $(cat out)"

# validate still reports each (the model conversion stops at the first).
run_opm validate shapes
expect_rc 1
expect_err_line 'time="T" level=fatal msg="shapes/foo/a.json:3: parse properties for bundle \"foo.v1\": parse property[1] of type \"olm.gvk\": json: cannot unmarshal string into Go value of type property.GVK"'
mkdir -p csvonly/foo
sed 's#,{"type":"olm.gvk","value":"g/v/k"}##' shapes/foo/a.json >csvonly/foo/a.json
run_opm validate csvonly
expect_rc 1
expect_err_line 'time="T" level=fatal msg="csvonly/foo/a.json:4: parse properties for bundle \"foo.v2\": parse property[0] of type \"olm.csv.metadata\": json: cannot unmarshal array into Go value of type property.CSVMetadata"'

# Entries the output could not carry.
refuses() { # DIR PROPERTY-JSON (index 1 of bundle foo.v1) LOCATED-MESSAGE
  mkdir -p "$1/foo"
  printf '%s\n' \
    '{"schema":"olm.package","name":"foo","defaultChannel":"a"}' \
    "{\"schema\":\"olm.bundle\",\"package\":\"foo\",\"name\":\"foo.v1\",\"image\":\"x\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"foo\",\"version\":\"1.0.0\"}},$2]}" \
    >"$1/foo/a.json"
  run_opm render "$1"
  expect_rc 1
  [ -s out ] && fail "$1: partial output: $(cat out)"
  expect_err_line "DATE $1/foo/a.json:2: render reference \"$1\": package \"foo\", bundle \"foo.v1\": property at index 1 of type $3"
}
refuses novalue '{"type":"olm.gvk"}' '"olm.gvk" has no value; it would be written as null'
refuses nullvalue-unknown '{"type":"custom.x"}' '"custom.x" has no value; it would be written as null'
refuses extra '{"type":"olm.gvk","value":{"group":"g","kind":"k","version":"v"},"extra":1}' \
  '"olm.gvk" has a member "extra" besides type and value; it would be dropped'
refuses twice '{"Type":"custom.x","type":"custom.y","value":1}' \
  '"custom.y" has a member "Type" besides type and value; it would be dropped'

# A null value is carried, and a key spelled in another case is written back as "type".
mkdir -p carried/foo
printf '%s\n' '{"schema":"olm.package","name":"foo","properties":[{"TYPE":"custom.x","Value":null}]}' >carried/foo/a.json
run_opm render carried
expect_rc 0
expect_text out '{
    "schema": "olm.package",
    "name": "foo",
    "defaultChannel": "",
    "properties": [
        {
            "type": "custom.x",
            "value": null
        }
    ]
}
'

# Package and channel properties are held to the same rule.
mkdir -p pkgprop/foo chprop/foo
printf '%s\n' '{"schema":"olm.package","name":"foo","properties":[{"type":"custom.x"}]}' >pkgprop/foo/a.json
run_opm render pkgprop
expect_rc 1
expect_err_line 'DATE pkgprop/foo/a.json:1: render reference "pkgprop": package "foo": property at index 0 of type "custom.x" has no value; it would be written as null'
printf '%s\n' '{"schema":"olm.package","name":"foo"}' \
  '{"schema":"olm.channel","package":"foo","name":"a","entries":[],"properties":[{"type":"custom.x","value":1,"note":"n"}]}' >chprop/foo/a.json
run_opm render chprop
expect_rc 1
expect_err_line 'DATE chprop/foo/a.json:2: render reference "chprop": package "foo", channel "a": property at index 0 of type "custom.x" has a member "note" besides type and value; it would be dropped'
