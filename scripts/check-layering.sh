#!/usr/bin/env bash
# Checks every #include "module/..." in src/ against the module levels of
# docs/architecture.md:
#   L0 util  L1 json yaml  L2 catalog registry  L3 bundle validate sqlite dockerfile
#   L4 render template migrate index serve list graph image init diff filter pin extract  L5 cli  L6 cmd
# A module includes only lower levels (util always); never upward, never sideways within
# L2 or L4; in L1 yaml may include json, never the reverse; cmd alone sees everything.
# No module includes another module's detail/ headers, and neither the modules nor the
# headers include each other in a cycle. SQL against the index schema stays in sqlite/, and
# image locations are told apart by registry/location.cpp alone.
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

level() {
  case "$1" in
    util) echo 0 ;;
    json|yaml) echo 1 ;;
    catalog|registry) echo 2 ;;
    bundle|validate|sqlite|dockerfile) echo 3 ;;
    render|template|migrate|index|serve|list|graph|image|init|diff|filter|pin|extract) echo 4 ;;
    cli) echo 5 ;;
    cmd) echo 6 ;;
    *) echo -1 ;;
  esac
}

# Whether a module may include another module of its own level.
sideways_allowed() {
  local from=$1 to=$2 lvl=$3
  case "$lvl" in
    1) [ "$from" = yaml ] && [ "$to" = json ] ;;
    3) true ;;
    *) false ;;
  esac
}

status=0
while IFS=: read -r file _ line; do
  case "$file" in */*) ;; *) continue ;; esac
  from=${file%%/*}
  target=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$line")
  to=${target%%/*}
  [ "$from" = "$to" ] && continue
  case "/$target" in
    */detail/*)
      echo "layering: $file includes $target, a detail header of $to"; status=1; continue ;;
  esac
  lf=$(level "$from"); lt=$(level "$to")
  if [ "$lf" -lt 0 ] || [ "$lt" -lt 0 ]; then
    echo "unknown module in $file: $line"; status=1; continue
  fi
  if [ "$from" = cmd ] || [ "$to" = util ]; then continue; fi
  if [ "$lt" -gt "$lf" ]; then
    echo "layering: $file includes $to (level $lt from level $lf)"; status=1
  elif [ "$lt" -eq "$lf" ] && ! sideways_allowed "$from" "$to" "$lf"; then
    echo "layering: $file includes $to (sideways within level $lf)"; status=1
  fi
done < <(grep -rn '#include "[a-z_]*/' --include='*.cpp' --include='*.hpp' . | sed 's|^\./||')

# Cycles: tsort reports any loop among the edges it is given.
includes=$(grep -rn '#include "[a-z_]*/' --include='*.hpp' --include='*.cpp' . |
  sed -E 's|^\./([^:]+):[0-9]+:#include "([^"]+)".*|\1 \2|')
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
if leaks=$(grep -rnE "$sql" --include='*.cpp' --include='*.hpp' . | grep -v '^\./sqlite/'); then
  echo "layering: SQL outside sqlite/ (the only module that speaks to the index schema):"
  sed 's/^\.\//  /' <<<"$leaks"
  status=1
fi
# Where an image is (a registry, oci:DIR[:TAG], docker-archive:FILE[:REF]) is told apart once,
# by registry/location.cpp: no other file tests a text for those prefixes.
prefix='"(oci|docker-archive):"|(starts_with|rfind|find|compare|substr)\([^)]*"(oci|docker-archive):'
if tests=$(grep -rnE "$prefix" --include='*.cpp' --include='*.hpp' . | grep -v '^\./registry/location\.cpp:'); then
  echo "layering: an image location's prefix tested outside registry/location.cpp (parse_image_location):"
  sed 's/^\.\//  /' <<<"$tests"
  status=1
fi
exit $status
