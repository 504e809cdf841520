#!/usr/bin/env bash
# opm init writes one olm.package object with the icon and description given.
source "$OPM_TESTS/cli/lib/common.bash"

run_opm init foo -c stable -i "$DATA/icon.svg" -d "$DATA/description.md"
expect_rc 0
expect_file out "$DATA/init_svg.json"
[ -s err ] && fail "unexpected stderr: $(cat err)"

# A CRLF description with trailing spaces cannot be a YAML block scalar.
printf 'x\r\nline2  \n' >d.md
run_opm init foo -d d.md -o yaml
expect_rc 0
expect_text out $'---\ndefaultChannel: ""\ndescription: "x\\r\\nline2  \\n"\nname: foo\nschema: olm.package\n'

# A PNG is recognised by its first bytes; the icon bytes are kept, base64-encoded.
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' >icon.png
run_opm init bar -i icon.png
expect_rc 0
expect_text out $'{\n    "schema": "olm.package",\n    "name": "bar",\n    "defaultChannel": "",\n    "icon": {\n        "base64data": "iVBORw0KGgoAAAANSUhEUg==",\n        "mediatype": "image/png"\n    }\n}\n'

# Detection is by leading bytes only: text starting "BM" is a bitmap.
printf 'BMW rules\n' >bmw.txt
run_opm init bmw -i bmw.txt -o yaml
expect_rc 0
grep -q '^  mediatype: image/bmp$' out || fail "BMW text not taken as image/bmp: $(cat out)"

# An empty description file gives no description; an empty name prints nothing.
: >empty.md
run_opm init foo -d empty.md
expect_rc 0
grep -q description out && fail "empty description was written"
run_opm init ""
expect_rc 0
[ -s out ] && fail "an empty package name printed $(cat out)"
exit 0
