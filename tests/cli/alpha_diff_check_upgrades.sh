#!/usr/bin/env bash
# opm alpha diff --check-upgrades: each rule has a passing and a failing pair; a failure exits 1
# with one fatal line on stderr, --allow accepts named rules, and -o github|sarif|junit report
# the check in the CI system's format.
source "$OPM_TESTS/cli/lib/common.bash"
check_report() { python3 "$OPM_TESTS/cli/lib/check_ci_reports.py" "$@"; }

cp -r "$OPM_TESTS/data/diff"/* .

# rules OLD NEW: the rules the check names, one per problem, in report order.
rules() {
  run_opm alpha diff "$1" "$2" --check-upgrades -o json "${@:3}"
  python3 -c 'import json,sys
t=open(sys.argv[1]).read()
print(" ".join(v["rule"] for v in json.loads(t)["upgradeCheck"]["violations"]) if t else "")' out
}

# upgrade-path: a removed head is stranded unless a skipRange still reaches it.
expect_eq "upgrade-path fails" "upgrade-path default-channel" "$(rules base broken-replaces)"
expect_eq "upgrade-path passes" "" "$(rules base skiprange-covers)"
# head-downgrade: the head moving up passes, moving down fails.
expect_eq "head-downgrade passes" "" "$(rules base head-added)"
expect_eq "head-downgrade fails" "upgrade-path upgrade-path head-downgrade head-downgrade default-channel" \
  "$(rules base removed-head)"
# default-channel: a new default that holds the old head passes, one that cannot reach it fails.
expect_eq "default-channel passes" "" "$(rules base default-changed)"
expect_eq "default-channel fails" "default-channel" "$(rules base default-moved-away)"
# unannounced-removal: removals pass once OLD deprecated them.
expect_eq "unannounced-removal fails" "unannounced-removal unannounced-removal" "$(rules base removed)"
expect_eq "unannounced-removal passes" "" "$(rules deprecated removed)"

run_opm alpha diff base removed-head --check-upgrades
expect_rc 1
expect_err_line 'time="T" level=fatal msg="upgrade check failed: 5 problems"'
grep -qF '  ! removed-head/foo/catalog.yaml:6: package "foo": channel "stable": previous head "foo.v1.2.0" has no upgrade path to the channel head "foo.v1.1.0" [upgrade-path]' out ||
  fail "no located upgrade-path line: $(cat out)"

# --allow takes rules repeated or comma-separated; what is left still fails.
run_opm alpha diff base removed-head --check-upgrades --allow upgrade-path,head-downgrade
expect_rc 1
expect_err_line 'time="T" level=fatal msg="upgrade check failed: 1 problem"'
run_opm alpha diff base removed-head --check-upgrades --allow upgrade-path,head-downgrade \
  --allow default-channel
expect_rc 0
[ -s err ] && fail "unexpected stderr: $(cat err)"

# Without --check-upgrades, a diff is only a report.
run_opm alpha diff base removed-head
expect_rc 0

# CI formats.
run_opm alpha diff base default-moved-away --check-upgrades -o github
expect_rc 1
expect_text out '::error file=default-moved-away/foo/catalog.yaml,line=1,title=opm alpha diff%3A default-channel::package "foo": default channel "v2" neither contains "foo.v1.2.0", the head of the previous default channel "stable", nor upgrades it
'
run_opm alpha diff base removed --check-upgrades -o github
expect_rc 1
expect_text out '::error title=opm alpha diff%3A unannounced-removal::package "bar" is removed without an olm.deprecations entry for it
::error file=removed/foo/catalog.yaml,line=1,title=opm alpha diff%3A unannounced-removal::package "foo": channel "fast" is removed without an olm.deprecations entry for it
'
run_opm alpha diff base removed-head --check-upgrades -o sarif
expect_rc 1
check_report sarif out || fail "not a SARIF 2.1.0 log"
expect_eq "sarif rules" "upgrade-path head-downgrade default-channel unannounced-removal" \
  "$(python3 -c 'import json,sys; print(" ".join(r["id"] for r in json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]["rules"]))' out)"
run_opm alpha diff base removed --check-upgrades -o junit
expect_rc 1
check_report junit out || fail "not well-formed JUnit XML"
expect_eq "junit cases" "bar:1 foo:1" "$(python3 -c '
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
print(" ".join(c.get("name") + ":" + str(len(c.findall("failure"))) for c in cases))' out)"
run_opm alpha diff base head-added --check-upgrades -o junit
expect_rc 0
check_report junit out || fail "not well-formed JUnit XML"
grep -q 'failures="0"' out || fail "failures reported for a safe change: $(cat out)"
echo "ok - alpha diff --check-upgrades"
