#!/usr/bin/env bash
# opm alpha render-graph draws the channels of catalog directories as a mermaid graph,
# filtered by package or minimum edge, and reports fatal errors as Go log lines.
source "$OPM_TESTS/cli/lib/common.bash"
GRAPH="$DATA/render_graph"
HEADER=$'graph LR\n  classDef deprecated fill:#E8960F\n  classDef skipped stroke:#FF0000,stroke-width:4px\n  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px\n'

run_opm alpha render-graph "$GRAPH/etcd"
expect_rc 0
expect_file out "$GRAPH/etcd.mermaid"
[ -s err ] && fail "unexpected stderr: $(cat err)"

run_opm alpha render-graph -p etcd "$GRAPH/etcd"
expect_rc 0
expect_file out "$GRAPH/etcd.mermaid"

run_opm alpha render-graph --package-name other "$GRAPH/etcd"
expect_rc 0
expect_text out "$HEADER"

# Several references are drawn together; a deprecated bundle is styled, and with
# --draw-v0-semantics a bundle skipped by a newer one is marked. Below the minimum edge
# nothing is drawn, nor styled.
mkdir more
cat >more/index.yaml <<'EOF'
schema: olm.channel
package: foo
name: fast
entries:
- name: foo.v2
  skips: [foo.v1]
  replaces: foo.v1
- name: foo.v1
---
schema: olm.bundle
package: foo
name: foo.v1
properties: [{type: olm.package, value: {packageName: foo, version: 1.0.0}}]
---
schema: olm.bundle
package: foo
name: foo.v2
properties: [{type: olm.package, value: {packageName: foo, version: 2.0.0}}]
---
schema: olm.deprecations
package: foo
entries:
- reference: {schema: olm.bundle, name: foo.v1}
  message: use foo.v2
EOF
FOO=$'  %% package "foo"\n  subgraph "foo"\n    %% channel "fast"\n    subgraph foo-fast["fast"]\n      foo-fast-foo.v2["foo.v2"]\n      foo-fast-foo.v1["foo.v1"]-- skip --> foo-fast-foo.v2["foo.v2"]\n      foo-fast-foo.v1["foo.v1"]-- replace --> foo-fast-foo.v2["foo.v2"]\n      foo-fast-foo.v1["foo.v1"]\n    end\n  end\n'
run_opm alpha render-graph more "$GRAPH/etcd" -p foo
expect_rc 0
expect_text out "$HEADER$FOO"$'class foo-fast-foo.v1 deprecated\n'
run_opm alpha render-graph more --draw-v0-semantics
expect_rc 0
expect_text out "$HEADER$FOO"$'class foo-fast-foo.v1 deprecatedskipped\n'

run_opm alpha render-graph more "$GRAPH/etcd" --minimum-edge foo.v2
expect_rc 0
expect_text out "$HEADER"$'  %% package "foo"\n  subgraph "foo"\n    %% channel "fast"\n    subgraph foo-fast["fast"]\n      foo-fast-foo.v2["foo.v2"]\n    end\n  end\n'

run_opm alpha render-graph "$GRAPH/etcd" --minimum-edge etcd.v9
expect_rc 1
[ -s out ] && fail "partial output: $(cat out)"
expect_err_line 'DATE unknown minimum edge name: "etcd.v9"'

# An invalid skipRange is a warning; the rest of the graph is drawn.
mkdir badrange
sed 's/skipRange: ">=0.9.0 <0.9.2"/skipRange: "not-a-range"/' "$GRAPH/etcd/catalog.yaml" >badrange/catalog.yaml
run_opm alpha render-graph badrange
expect_rc 0
grep -q -- '-- replace -->' out || fail "graph not drawn: $(cat out)"
expect_text err $'warning: ignoring invalid SkipRange for package/edge "etcd"/"etcd.v0.9.2": Could not get version from string: "not-a-range"\n'

mkdir badversion
sed 's/version: 0.9.0}/version: v0.9.0}/' "$GRAPH/etcd/catalog.yaml" >badversion/catalog.yaml
run_opm alpha render-graph badversion
expect_rc 1
expect_err_line 'DATE bundle "etcd.v0.9.0" has invalid version "v0.9.0": Invalid character(s) found in major number "v0"'

mkdir -p bundle/manifests bundle/metadata
run_opm alpha render-graph bundle
expect_rc 1
expect_err_line 'DATE render reference "bundle": cannot render bundle directory "bundle": not allowed'

run_opm alpha render-graph
expect_rc 1
head -1 err >first
expect_text first $'Error: requires at least 1 arg(s), only received 0\n'
exit 0
