#!/usr/bin/env bash
# Load and conversion errors stop validation at the first problem, named by file and line,
# with upstream's message text after the location.
source "$OPM_TESTS/cli/lib/common.bash"

mkdir -p bad/pkg
printf 'schema: olm.package\nname: a\n---\nschema: olm.channel\npackage: a\nname: s\nentries: [\n' >bad/pkg/index.yaml
run_opm validate bad
expect_rc 1
expect_err_line 'time="T" level=fatal msg="bad/pkg/index.yaml:8:1: error converting YAML to JSON: yaml: line 4: did not find expected node content"'

mkdir dup
printf '{"schema":"olm.package","name":"a"}\n{"schema":"olm.package","name":"a"}\n' >dup/index.json
run_opm validate dup
expect_rc 1
expect_err_line 'time="T" level=fatal msg="dup/index.json:2: duplicate package \"a\""'

mkdir noschema
printf 'name: a\n' >noschema/x.yaml
run_opm validate noschema
expect_rc 1
expect_err_line 'time="T" level=fatal msg="noschema/x.yaml:1: object '"'"'{\"name\":\"a\"}\n'"'"' is missing root schema field"'

mkdir readme
printf '# Title\n\nSome text: here\n' >readme/README.md
run_opm validate readme
expect_rc 1
normalized_err | grep -q '^time="T" level=fatal msg="readme/README.md:1: ' ||
  fail "README error not located: $(cat err)"

printf '*.md\n' >readme/.indexignore
run_opm validate readme
expect_rc 0
