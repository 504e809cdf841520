#!/usr/bin/env bash
# opm init failures: cobra usage errors first, then logrus fatal lines in upstream's order.
source "$OPM_TESTS/cli/lib/common.bash"

run_opm init a b
expect_rc 1
{ printf 'Error: accepts 1 arg(s), received 2\n'; cat "$DATA/init_usage.txt"; printf '\n'; } >expected_usage
expect_file err expected_usage
[ -s out ] && fail "usage error wrote to stdout"

run_opm init
expect_rc 1
head -1 err | grep -qx 'Error: accepts 1 arg(s), received 0' || fail "$(head -1 err)"

run_opm init a -o xml -i missing
expect_rc 1
expect_err_line 'time="T" level=fatal msg="invalid --output value \"xml\", expected (json|yaml)"'

run_opm init a -i missing -d missing2
expect_rc 1
expect_err_line 'time="T" level=fatal msg="open icon file: open missing: no such file or directory"'

printf '%%PDF-1.4\n' >x.pdf
run_opm init a -i x.pdf -d missing2
expect_rc 1
expect_err_line 'time="T" level=fatal msg="open description file: open missing2: no such file or directory"'

# The description is read before the icon is examined.
mkdir adir
run_opm init a -i x.pdf -d adir
expect_rc 1
expect_err_line 'time="T" level=fatal msg="read description: read adir: is a directory"'

run_opm init a -i x.pdf
expect_rc 1
expect_err_line 'time="T" level=fatal msg="detected invalid type \"application/pdf\": not an image"'

: >empty.png
run_opm init a -i empty.png
expect_rc 1
expect_err_line 'time="T" level=fatal msg="detect icon mediatype: Empty buffer"'

# SVG rules: a self-closing root or a '*' in the body is not an image.
printf '<svg viewBox="0 0 1 1"/>' >self.svg
run_opm init a -i self.svg
expect_rc 1
expect_err_line 'time="T" level=fatal msg="detected invalid type \"\": not an image"'
printf '<svg><path d="M0 0"/>*</svg>' >star.svg
run_opm init a -i star.svg
expect_rc 1
expect_err_line 'time="T" level=fatal msg="detected invalid type \"\": not an image"'
[ -s out ] && fail "a failed init wrote to stdout"
exit 0
