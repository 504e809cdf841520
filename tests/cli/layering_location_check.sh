#!/usr/bin/env bash
# scripts/check-layering.sh keeps the telling apart of image locations in registry/location.cpp:
# a test for "oci:" or "docker-archive:" passes there and fails elsewhere, naming the file; a
# help text that merely spells the forms out does not count.
source "$OPM_TESTS/cli/lib/common.bash"

mkdir -p tree/scripts tree/src/registry tree/src/image tree/src/cmd
cp "$OPM_TESTS/../scripts/check-layering.sh" tree/scripts/
printf '#include "registry/location.hpp"\nbool layout = text.starts_with("oci:");\nauto k = "docker-archive:";\n' >tree/src/registry/location.cpp
printf 'auto help = "registry reference, oci:DIR[:TAG] or docker-archive:FILE";\n' >tree/src/cmd/push.cpp

bash tree/scripts/check-layering.sh >err 2>&1 || fail "prefixes in registry/location.cpp refused: $(cat err)"

printf 'bool local = tag.starts_with("oci:");\n' >tree/src/image/output.cpp
RC=0
bash tree/scripts/check-layering.sh >err 2>&1 || RC=$?
expect_rc 1
grep -q '^  image/output.cpp:1:bool local' err || fail "the test in image/ is not named: $(cat err)"

rm tree/src/image/output.cpp
printf 'constexpr std::string_view k_prefix = "docker-archive:";\n' >tree/src/registry/archive_source.cpp
RC=0
bash tree/scripts/check-layering.sh >err 2>&1 || RC=$?
expect_rc 1
grep -q '^  registry/archive_source.cpp:1:' err || fail "the prefix in registry/ is not named: $(cat err)"
exit 0
