#!/usr/bin/env bash
# opm validate -o github|sarif|junit: every finding on stdout in the CI system's format, exit 1
# and nothing on stderr for a failing catalog; a valid catalog passes with exit 0. The SARIF
# log is checked against SARIF 2.1.0's structure, the JUnit XML for well-formedness.
source "$OPM_TESTS/cli/lib/common.bash"
check_report() { python3 "$OPM_TESTS/cli/lib/check_ci_reports.py" "$@"; }

cp -r "$DATA/catalogs/invalid" cat
run_opm validate cat -o github
expect_rc 1
[ -s err ] && fail "unexpected stderr: $(cat err)"
cat >"$WORK/expected" <<'TXT'
::error file=cat/a/catalog.yaml,line=6,title=opm validate::invalid channel "s": multiple channel heads found in graph: x1, x2
::error file=cat/a/catalog.yaml,line=21,title=opm validate::invalid bundle "x1": skip[0] is empty
::error file=cat/a/catalog.yaml,line=21,title=opm validate::invalid bundle "x1": bundle image must be set
::error file=cat/a/catalog.yaml,line=14,title=opm validate::invalid channel "t": no channel head found in graph
::error file=cat/a/catalog.yaml,line=21,title=opm validate::invalid bundle "x1": bundle image must be set
::error file=cat/others/b.json,line=1,title=opm validate::invalid package "b": default channel must be set
::error file=cat/others/b.json,line=1,title=opm validate::invalid package "b": package must contain at least one channel
::error file=cat/others/c.yaml,line=1,title=opm validate::invalid package "c": default channel must be set
::error file=cat/others/c.yaml,line=1,title=opm validate::invalid package "c": package must contain at least one channel
TXT
expect_file out "$WORK/expected"

run_opm validate cat -o sarif
expect_rc 1
[ -s err ] && fail "unexpected stderr: $(cat err)"
check_report sarif out || fail "not a SARIF 2.1.0 log"
expect_eq "one result per finding" 9 "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["runs"][0]["results"]))' out)"
expect_eq "first result's region" "cat/a/catalog.yaml 6" "$(python3 -c 'import json,sys; l=json.load(open(sys.argv[1]))["runs"][0]["results"][0]["locations"][0]["physicalLocation"]; print(l["artifactLocation"]["uri"], l["region"]["startLine"])' out)"

run_opm validate cat -o junit
expect_rc 1
check_report junit out || fail "not well-formed JUnit XML"
expect_eq "one test case per package" "a:5 b:2 c:2" "$(python3 -c '
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
print(" ".join(c.get("name") + ":" + str(len(c.findall("failure"))) for c in cases))' out)"

# A catalog that does not load is one finding about the catalog, with its file and line.
mkdir broken && printf 'schema: olm.package\nname: [\n' >broken/index.yaml
run_opm validate broken -o github
expect_rc 1
expect_text out $'::error file=broken/index.yaml,line=3,col=1,title=opm validate::error converting YAML to JSON: yaml: line 2: did not find expected node content\n'
run_opm validate broken -o junit
expect_rc 1
check_report junit out || fail "not well-formed JUnit XML"
grep -qF '<testcase classname="opm.validate" name="(catalog)">' out || fail "no catalog test case: $(cat out)"

# Valid: nothing to annotate, an empty SARIF run, passing test cases; exit 0.
cp -r "$OPM_TESTS/../examples/catalog" good
run_opm validate good -o github
expect_rc 0
[ -s out ] && fail "unexpected stdout: $(cat out)"
run_opm validate good -o sarif
expect_rc 0
check_report sarif out || fail "not a SARIF 2.1.0 log"
run_opm validate good -o junit
expect_rc 0
check_report junit out || fail "not well-formed JUnit XML"
grep -q 'failures="0"' out || fail "failures reported for a valid catalog: $(cat out)"
echo "ok - validate ci formats"
