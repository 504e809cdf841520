#!/usr/bin/env bash
# scripts/check-layering.sh refuses each kind of include the levels forbid, naming the file:
# upward, sideways in L4, another module's detail/ header, however the directive is spaced
# and whatever the file's suffix; a path that climbs with "../" and a module header in angle
# brackets, which would slip past those checks; and a C library's headers outside the module
# that wraps it (CLI11's are cli's and cmd's). What the levels allow passes.
source "$OPM_TESTS/cli/lib/common.bash"
source "$OPM_TESTS/cli/lib/layering.bash"

layering_tree util json yaml catalog registry render serve cli cmd
printf '#include "util/error.hpp"\n#include <zlib.h>\n#include <curl/curl.h>\n' >tree/src/registry/gzip.cpp
printf '#include "yaml/detail/scan.hpp"\n#include "json/value.hpp"\n' >tree/src/yaml/read.cpp
printf '#include "catalog/model.hpp"\n#include <grpcpp/grpcpp.h>\n' >tree/src/serve/run.cpp
printf '#include <CLI/CLI.hpp>\n#include <fmt/format.h>\n#include <vector>\n' >tree/src/cli/app.cpp
printf '#include <CLI/CLI.hpp>\n#include "serve/serve.hpp"\n' >tree/src/cmd/serve.cpp
layering_passes "includes the levels allow"

printf '#include "cmd/root.hpp"\n' >tree/src/util/strings.cpp
layering_refuses '^layering: util/strings.cpp includes cmd (level 6 from level 0)$' "the upward include"

printf '#  include   "cmd/root.hpp"\n' >tree/src/util/strings.cpp
layering_refuses '^layering: util/strings.cpp includes cmd (level 6' "the upward include, spaced"

rm tree/src/util/strings.cpp
printf '#include "serve/serve.hpp"\n' >tree/src/render/render.h
layering_refuses '^layering: render/render.h includes serve (sideways within level 4)$' \
  "the sideways include in a .h file"

rm tree/src/render/render.h
printf '#include "yaml/detail/scan.hpp"\n' >tree/src/catalog/load.cpp
layering_refuses '^layering: catalog/load.cpp includes yaml/detail/scan.hpp, a detail header of yaml$' \
  "the detail header"

printf '#include "../cmd/root.hpp"\n' >tree/src/catalog/load.cpp
layering_refuses '^layering: catalog/load.cpp includes "../cmd/root.hpp" by a relative path' \
  "the relative include"

printf '#include <cmd/root.hpp>\n' >tree/src/catalog/load.cpp
layering_refuses '^layering: catalog/load.cpp includes <cmd/root.hpp>, a module header in angle brackets' \
  "the module header in angle brackets"

printf '#include <zlib.h>\n' >tree/src/catalog/load.cpp
layering_refuses '^layering: catalog/load.cpp includes <zlib.h>, which only registry may use$' \
  "zlib outside registry"

printf '#include <CLI/CLI.hpp>\n' >tree/src/catalog/load.cpp
layering_refuses '^layering: catalog/load.cpp includes <CLI/CLI.hpp>, which only cli cmd may use$' \
  "CLI11 outside cli and cmd"

rm tree/src/catalog/load.cpp
layering_passes "the tree put back"
exit 0
