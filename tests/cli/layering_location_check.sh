#!/usr/bin/env bash
# scripts/check-layering.sh keeps the telling apart of image locations in registry/location.cpp:
# a test for "oci:" or "docker-archive:" passes there and fails elsewhere, naming the file; a
# help text that merely spells the forms out does not count. A C or C++ file of any suffix is
# read.
source "$OPM_TESTS/cli/lib/common.bash"
source "$OPM_TESTS/cli/lib/layering.bash"

layering_tree registry image cmd
printf '#include "registry/location.hpp"\nbool layout = text.starts_with("oci:");\nauto k = "docker-archive:";\n' >tree/src/registry/location.cpp
printf 'auto help = "registry reference, oci:DIR[:TAG] or docker-archive:FILE";\n' >tree/src/cmd/push.cpp
layering_passes "prefixes in registry/location.cpp"

printf 'bool local = tag.starts_with("oci:");\n' >tree/src/image/output.cpp
layering_refuses '^  image/output.cpp:1:bool local' "the test in image/"

rm tree/src/image/output.cpp
printf 'constexpr std::string_view k_prefix = "docker-archive:";\n' >tree/src/registry/archive_source.cpp
layering_refuses '^  registry/archive_source.cpp:1:' "the prefix in registry/"

rm tree/src/registry/archive_source.cpp
printf 'inline bool is_layout(std::string_view t) { return t.starts_with("oci:"); }\n' >tree/src/image/layout.h
layering_refuses '^  image/layout.h:1:inline bool' "the test in image/layout.h"
exit 0
