#!/usr/bin/env bash
# A catalog file is read whole or not at all: a syntax error after the first object, text
# after a document, or a byte order mark before a JSON stream is a located error for render
# and validate alike, never a quiet end of the file.
source "$OPM_TESTS/cli/lib/common.bash"

package() { printf '{"schema":"olm.package","name":"%s"}' "$1"; }

expect_both_fail() { # dir, located message without the render wrapping
  local dir=$1 located=$2 message=${2#*: }
  run_opm render "$dir"
  expect_rc 1
  [ -s out ] && fail "$dir: partial output: $(cat out)"
  expect_err_line "DATE ${located%%: *}: render reference \"$dir\": $message"
  run_opm validate "$dir"
  expect_rc 1
  expect_err_line "time=\"T\" level=fatal msg=\"$located\""
}

# A trailing comma in the first object: the whole file is not lost to the YAML reading.
mkdir -p comma/foo
{ printf '{"schema":"olm.package","name":"foo",}\n'; package bar; echo; } >comma/foo/a.json
expect_both_fail comma "comma/foo/a.json:1:38: json: offset 38: invalid character '}' looking for beginning of object key string"

# The same after one good object.
mkdir -p second/foo
{ package foo; echo; printf '{"schema":"olm.package","name":"bar",}\n'; package baz; echo; } >second/foo/a.json
expect_both_fail second "second/foo/a.json:2:38: json: offset 76: invalid character '}' looking for beginning of object key string"

# A stray token after an object.
mkdir -p stray/foo
{ package foo; echo ' x'; package bar; echo; } >stray/foo/a.json
expect_both_fail stray "stray/foo/a.json:1:39: json: offset 39: invalid character 'x' looking for beginning of value"

# One or two byte order marks: the file is not a JSON stream, and the YAML reading does not
# stop after the first object.
for boms in 1 2; do
  mkdir -p "bom$boms/foo"
  { for _ in $(seq "$boms"); do printf '\xef\xbb\xbf'; done; package foo; echo; package bar; echo; } >"bom$boms/foo/a.json"
  expect_both_fail "bom$boms" "bom$boms/foo/a.json:2:1: error converting YAML to JSON: yaml: line 1: did not find expected <document start>"
done

# A YAML document ended with "..." and followed by more content.
mkdir -p ended
printf 'schema: olm.package\nname: a\n...\nschema: olm.package\nname: b\n' >ended/a.yaml
expect_both_fail ended "ended/a.yaml:4:1: error converting YAML to JSON: yaml: line 3: did not find expected <document start>"

# One byte order mark before a single object still loads, as upstream.
mkdir -p onebom
{ printf '\xef\xbb\xbf'; package foo; echo; } >onebom/a.json
run_opm render onebom
expect_rc 0
expect_text out $'{\n    "schema": "olm.package",\n    "name": "foo",\n    "defaultChannel": ""\n}\n'
