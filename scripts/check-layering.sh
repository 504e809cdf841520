#!/usr/bin/env bash
# Checks every #include "module/..." in src/ against the module levels of
# docs/architecture.md:
#   L0 util  L1 json yaml  L2 catalog registry  L3 bundle validate sqlite dockerfile
#   L4 render template migrate index serve list graph image init diff filter pin extract  L5 cli  L6 cmd
# A module includes only lower levels (util always); never upward, never sideways within
# L2 or L4; in L1 yaml may include json, never the reverse; cmd alone sees everything.
# No module includes another module's detail/ headers, and neither the modules nor the
# headers include each other in a cycle. Each C library's headers are its one module's own
# (CLI11's are cli's and cmd's); a module's header is included by its path from src/, in
# quotes. SQL against the index schema stays in sqlite/, and image locations are told apart
# by registry/location.cpp alone.
#
# The checkout is the one this script lies in when it is run as a file; read from standard
# input or given to `sh -c`/`bash -c`, it is the git work tree or the directory it runs in.
# Run by sh, it starts again under bash, whose features it uses.
script=${BASH_SOURCE:-$0}
root=
if [ -f "$script" ]; then root=$(cd "$(dirname "$(readlink -f "$script")")/.." && pwd); fi
if [ ! -d "$root/src" ]; then root=$(git rev-parse --show-toplevel 2>/dev/null || pwd); fi
if [ ! -d "$root/src" ]; then
  echo "check-layering: no src/ in $root: run it from the checkout, or as scripts/check-layering.sh"
  exit 2
fi
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$root/scripts/check-layering.sh" "$@"; fi
set -euo pipefail
# A step that fails on its own says so where the findings go, instead of ending the check
# without a word.
trap 'echo "check-layering: line $LINENO failed: $BASH_COMMAND"' ERR
cd "$root/src"

# Every C and C++ file under src/, whatever its suffix.
sources=(--include='*.cpp' --include='*.hpp' --include='*.cc' --include='*.cxx' --include='*.h'
         --include='*.hh' --include='*.hxx' --include='*.ipp' --include='*.inl')
quoted_module='^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]+/'

status=0
# One pass over every include of another module, in awk: a process per include made the check
# take seconds.
if found=$(grep -rnE "$quoted_module" "${sources[@]}" . | sed 's|^\./||' | awk '
    function level(m) {
      if (m == "util") return 0
      if (m ~ /^(json|yaml)$/) return 1
      if (m ~ /^(catalog|registry)$/) return 2
      if (m ~ /^(bundle|validate|sqlite|dockerfile)$/) return 3
      if (m ~ /^(render|template|migrate|index|serve|list|graph|image|init|diff|filter|pin|extract)$/) return 4
      if (m == "cli") return 5
      if (m == "cmd") return 6
      return -1
    }
    # Whether a module may include another module of its own level.
    function sideways_allowed(from, to, lvl) {
      if (lvl == 1) return from == "yaml" && to == "json"
      return lvl == 3
    }
    {
      file = $0; sub(/:.*/, "", file)
      if (file !~ /\//) next
      line = $0; sub(/^[^:]*:[0-9]+:/, "", line)
      target = line; sub(/^[^"]*"/, "", target); sub(/".*/, "", target)
      from = file; sub(/\/.*/, "", from)
      to = target; sub(/\/.*/, "", to)
      if (from == to) next
      if (("/" target) ~ /\/detail\//) {
        print "layering: " file " includes " target ", a detail header of " to; next
      }
      lf = level(from); lt = level(to)
      if (lf < 0 || lt < 0) { print "unknown module in " file ": " line; next }
      if (from == "cmd" || to == "util") next
      if (lt > lf) print "layering: " file " includes " to " (level " lt " from level " lf ")"
      else if (lt == lf && !sideways_allowed(from, to, lf))
        print "layering: " file " includes " to " (sideways within level " lf ")"
    }') && [ -n "$found" ]; then
  echo "$found"
  status=1
fi

# Includes by a path that climbs out of src/ or through another folder ("../x.hpp") escape the
# checks above; so do a module's headers in angle brackets. Each C library's headers belong to
# the module that wraps it.
modules=" $(find . -mindepth 1 -maxdepth 1 -type d -printf '%f ' ) "
if found=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "${sources[@]}" . |
  sed 's|^\./||' | awk -v modules="$modules" '
    function owner(h) {
      if (h == "yaml.h") return "yaml"
      if (h ~ /^(curl|openssl|toml\+\+)\// || h ~ /^(archive|archive_entry|zlib)\.h$/) return "registry"
      if (h == "sqlite3.h") return "sqlite"
      if (h ~ /^(grpc|grpcpp|google\/protobuf)\//) return "serve"
      if (h ~ /^CLI\//) return "cli cmd"
      return ""
    }
    {
      file = $0; sub(/:.*/, "", file)
      from = file; sub(/\/.*/, "", from)
      text = $0; sub(/^[^:]*:[0-9]+:/, "", text)
      if (match(text, /"[^"]*"/)) {
        h = substr(text, RSTART + 1, RLENGTH - 2)
        if (h ~ /(^|\/)\.\.?\//) print "layering: " file " includes \"" h "\" by a relative path (name it from src/)"
        next
      }
      if (!match(text, /<[^>]*>/)) next
      h = substr(text, RSTART + 1, RLENGTH - 2)
      top = h; sub(/\/.*/, "", top)
      if (h ~ /\// && index(modules, " " top " ")) {
        print "layering: " file " includes <" h ">, a module header in angle brackets (quote it)"
        next
      }
      o = owner(h)
      if (o != "" && index(" " o " ", " " from " ") == 0)
        print "layering: " file " includes <" h ">, which only " o " may use"
    }') && [ -n "$found" ]; then
  echo "$found"
  status=1
fi

# Cycles: tsort reports any loop among the edges it is given.
includes=$(grep -rnE "$quoted_module" "${sources[@]}" . |
  sed -E 's|^\./([^:]+):[0-9]+:.*#[[:space:]]*include[[:space:]]*"([^"]+)".*|\1 \2|')
header_edges=$(awk '$1 ~ /\.hpp$/ { print $1, $2 }' <<<"$includes")
module_edges=$(awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] != b[1]) print a[1], b[1] }' \
  <<<"$includes" | sort -u)
for kind in header module; do
  edges=${kind}_edges
  if ! loop=$(tsort <<<"${!edges}" 2>&1 >/dev/null) || [ -n "$loop" ]; then
    echo "layering: the ${kind}s include each other in a cycle:"
    sed 's/^tsort: /  /' <<<"$loop"
    status=1
  fi
done
# The index database's schema belongs to sqlite/: no other module names its tables in SQL.
tables='package|channel|channel_entry|operatorbundle|related_image|api|api_provider|api_requirer|properties|dependencies|deprecated|schema_migrations'
sql='(FROM|JOIN|INTO|UPDATE|TABLE)[[:space:]]+('"$tables"')\b|"(PRAGMA|VACUUM)\b|"(SELECT|INSERT|DELETE|select|insert|delete from|update [a-z_]+ set)[[:space:]]'
if leaks=$(grep -rnE "$sql" "${sources[@]}" . | grep -v '^\./sqlite/'); then
  echo "layering: SQL outside sqlite/ (the only module that speaks to the index schema):"
  sed 's/^\.\//  /' <<<"$leaks"
  status=1
fi
# Where an image is (a registry, oci:DIR[:TAG], docker-archive:FILE[:REF]) is told apart once,
# by registry/location.cpp: no other file tests a text for those prefixes.
prefix='"(oci|docker-archive):"|(starts_with|rfind|find|compare|substr)\([^)]*"(oci|docker-archive):'
if tests=$(grep -rnE "$prefix" "${sources[@]}" . | grep -v '^\./registry/location\.cpp:'); then
  echo "layering: an image location's prefix tested outside registry/location.cpp (parse_image_location):"
  sed 's/^\.\//  /' <<<"$tests"
  status=1
fi
exit $status
