#!/usr/bin/env bash
# opm validate lists every model problem with its file:line, then upstream's fatal tree;
# -o json|yaml print upstream's report on stdout and nothing on stderr, the located lines
# before upstream's tree in its message.
source "$OPM_TESTS/cli/lib/common.bash"

cp -r "$DATA/catalogs/invalid" cat
run_opm validate cat
expect_rc 1
[ -s out ] && fail "unexpected stdout: $(cat out)"
cat >"$WORK/expected.err" <<'TXT'
cat/a/catalog.yaml:6: invalid channel "s": multiple channel heads found in graph: x1, x2
cat/a/catalog.yaml:21: invalid bundle "x1": skip[0] is empty
cat/a/catalog.yaml:21: invalid bundle "x1": bundle image must be set
cat/a/catalog.yaml:14: invalid channel "t": no channel head found in graph
cat/a/catalog.yaml:21: invalid bundle "x1": bundle image must be set
cat/others/b.json:1: invalid package "b": default channel must be set
cat/others/b.json:1: invalid package "b": package must contain at least one channel
cat/others/c.yaml:1: invalid package "c": default channel must be set
cat/others/c.yaml:1: invalid package "c": package must contain at least one channel
time="T" level=fatal msg="invalid index:\n├── invalid package \"a\":\n│   ├── invalid channel \"s\":\n│   │   ├── multiple channel heads found in graph: x1, x2\n│   │   └── invalid bundle \"x1\":\n│   │       ├── skip[0] is empty\n│   │       └── bundle image must be set\n│   └── invalid channel \"t\":\n│       ├── no channel head found in graph\n│       └── invalid bundle \"x1\":\n│           └── bundle image must be set\n├── invalid package \"b\":\n│   ├── default channel must be set\n│   └── package must contain at least one channel\n└── invalid package \"c\":\n    ├── default channel must be set\n    └── package must contain at least one channel"
TXT
normalized_err >"$WORK/err.norm"
expect_file "$WORK/err.norm" "$WORK/expected.err"

run_opm validate -o json cat
expect_rc 1
[ -s err ] && fail "unexpected stderr: $(cat err)"
cat >"$WORK/expected.json" <<'TXT'
{
  "passed": false,
  "error": {
    "message": "cat/a/catalog.yaml:6: invalid channel \"s\": multiple channel heads found in graph: x1, x2\ncat/a/catalog.yaml:21: invalid bundle \"x1\": skip[0] is empty\ncat/a/catalog.yaml:21: invalid bundle \"x1\": bundle image must be set\ncat/a/catalog.yaml:14: invalid channel \"t\": no channel head found in graph\ncat/a/catalog.yaml:21: invalid bundle \"x1\": bundle image must be set\ncat/others/b.json:1: invalid package \"b\": default channel must be set\ncat/others/b.json:1: invalid package \"b\": package must contain at least one channel\ncat/others/c.yaml:1: invalid package \"c\": default channel must be set\ncat/others/c.yaml:1: invalid package \"c\": package must contain at least one channel\ninvalid index:\n├── invalid package \"a\":\n│   ├── invalid channel \"s\":\n│   │   ├── multiple channel heads found in graph: x1, x2\n│   │   └── invalid bundle \"x1\":\n│   │       ├── skip[0] is empty\n│   │       └── bundle image must be set\n│   └── invalid channel \"t\":\n│       ├── no channel head found in graph\n│       └── invalid bundle \"x1\":\n│           └── bundle image must be set\n├── invalid package \"b\":\n│   ├── default channel must be set\n│   └── package must contain at least one channel\n└── invalid package \"c\":\n    ├── default channel must be set\n    └── package must contain at least one channel"
  }
}
TXT
expect_file out "$WORK/expected.json"

run_opm validate -o yaml cat
expect_rc 1
cat >"$WORK/expected.yaml" <<'TXT'
error:
  message: |-
    cat/a/catalog.yaml:6: invalid channel "s": multiple channel heads found in graph: x1, x2
    cat/a/catalog.yaml:21: invalid bundle "x1": skip[0] is empty
    cat/a/catalog.yaml:21: invalid bundle "x1": bundle image must be set
    cat/a/catalog.yaml:14: invalid channel "t": no channel head found in graph
    cat/a/catalog.yaml:21: invalid bundle "x1": bundle image must be set
    cat/others/b.json:1: invalid package "b": default channel must be set
    cat/others/b.json:1: invalid package "b": package must contain at least one channel
    cat/others/c.yaml:1: invalid package "c": default channel must be set
    cat/others/c.yaml:1: invalid package "c": package must contain at least one channel
    invalid index:
    ├── invalid package "a":
    │   ├── invalid channel "s":
    │   │   ├── multiple channel heads found in graph: x1, x2
    │   │   └── invalid bundle "x1":
    │   │       ├── skip[0] is empty
    │   │       └── bundle image must be set
    │   └── invalid channel "t":
    │       ├── no channel head found in graph
    │       └── invalid bundle "x1":
    │           └── bundle image must be set
    ├── invalid package "b":
    │   ├── default channel must be set
    │   └── package must contain at least one channel
    └── invalid package "c":
        ├── default channel must be set
        └── package must contain at least one channel
passed: false

TXT
expect_file out "$WORK/expected.yaml"
