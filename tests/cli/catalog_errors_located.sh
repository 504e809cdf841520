#!/usr/bin/env bash
# A catalog error names its file and line first, upstream's text after it, in every command
# that loads a catalog: validate, validate -o json|yaml, serve and alpha catalog build. A YAML
# syntax error gives the absolute line first, go-yaml's document-relative line after it; a
# defaultChannel that names no channel lists the package's channels.
source "$OPM_TESTS/cli/lib/common.bash"

mkdir -p syntax/pkg
printf 'schema: olm.package\nname: a\n---\nschema: olm.channel\npackage: a\nname: s\nentries: [\n' \
  >syntax/pkg/index.yaml
syntax='syntax/pkg/index.yaml:8:1: error converting YAML to JSON: yaml: line 4: did not find expected node content'

mkdir default
cat >default/index.yaml <<'YAML'
schema: olm.package
name: a
defaultChannel: stabel
---
schema: olm.channel
package: a
name: stable
entries:
  - name: a.v1
---
schema: olm.channel
package: a
name: fast
entries:
  - name: a.v1
---
schema: olm.bundle
name: a.v1
package: a
image: example.com/a:v1
properties:
  - type: olm.package
    value: {packageName: a, version: 1.0.0}
YAML
finding='default/index.yaml:1: invalid channel "stabel": channel must contain at least one bundle (defaultChannel "stabel" names no olm.channel of package "a", whose channels are "fast", "stable")'
tree='invalid index:\n└── invalid package \"a\":\n    └── invalid channel \"stabel\":\n        └── channel must contain at least one bundle (defaultChannel \"stabel\" names no olm.channel of package \"a\", whose channels are \"fast\", \"stable\")'
quoted_finding=${finding//\"/\\\"}

run_opm validate syntax
expect_rc 1
expect_err_line "time=\"T\" level=fatal msg=\"$syntax\""

run_opm validate default
expect_rc 1
normalized_err >err.norm
expect_text err.norm "$finding
time=\"T\" level=fatal msg=\"$tree\"
"

run_opm validate syntax -o json
expect_rc 1
expect_text out "{
  \"passed\": false,
  \"error\": {
    \"message\": \"$syntax\"
  }
}
"
[ -s err ] && fail "unexpected stderr: $(cat err)"

run_opm validate default -o json
expect_rc 1
expect_text out "{
  \"passed\": false,
  \"error\": {
    \"message\": \"$quoted_finding\\n$tree\"
  }
}
"

run_opm validate syntax -o yaml
expect_rc 1
# go-yaml folds the long line.
expect_text out "error:
  message: 'syntax/pkg/index.yaml:8:1: error converting YAML to JSON: yaml: line 4:
    did not find expected node content'
passed: false

"

run_opm serve syntax -t /dev/null
expect_rc 1
expect_err_line "time=\"T\" level=fatal msg=\"$syntax\""
[ -s out ] && fail "unexpected stdout: $(cat out)"

run_opm serve default -t /dev/null --cache-dir cache --cache-only
expect_rc 1
expect_err_line "time=\"T\" level=fatal msg=\"$quoted_finding\\n$tree\""
[ -e cache/digest ] && fail "serve wrote a cache of an invalid catalog"

run_opm alpha catalog build syntax --base-image scratch --tag "oci:$WORK/image"
expect_rc 1
expect_err_line "time=\"T\" level=fatal msg=\"syntax/pkg/index.yaml:8:1: writing the serve cache: error converting YAML to JSON: yaml: line 4: did not find expected node content\""
[ -e image ] && fail "catalog build wrote an image of an invalid catalog"

run_opm alpha catalog build default --base-image scratch --tag "oci:$WORK/image"
expect_rc 1
expect_err_line "time=\"T\" level=fatal msg=\"writing the serve cache: $quoted_finding\\n$tree\""
[ -e image ] && fail "catalog build wrote an image of an invalid catalog"
exit 0
