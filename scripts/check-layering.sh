#!/usr/bin/env bash
# Checks every #include "module/..." in src/ against the module levels of
# docs/architecture.md: a module includes only lower levels (util always);
# never upward, never sideways within L1 or L3; cmd alone sees everything.
set -euo pipefail
cd "$(dirname "$0")/../src"

level() {
  case "$1" in
    util) echo 0 ;;
    catalog|registry) echo 1 ;;
    bundle|validate|sqlite|dockerfile) echo 2 ;;
    render|template|init|migrate|index) echo 3 ;;
    cmd) echo 4 ;;
    *) echo -1 ;;
  esac
}

status=0
while IFS=: read -r file _ line; do
  case "$file" in */*) ;; *) continue ;; esac
  from=${file%%/*}
  to=$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<<"$line")
  [ "$from" = "$to" ] && continue
  lf=$(level "$from"); lt=$(level "$to")
  if [ "$lf" -lt 0 ] || [ "$lt" -lt 0 ]; then
    echo "unknown module in $file: $line"; status=1; continue
  fi
  if [ "$from" = cmd ] || [ "$to" = util ]; then continue; fi
  if [ "$lt" -ge "$lf" ]; then
    echo "layering: $file includes $to (level $lt from level $lf)"; status=1
  fi
done < <(grep -rn '#include "[a-z_]*/' --include='*.cpp' --include='*.hpp' . | sed 's|^\./||')
exit $status
