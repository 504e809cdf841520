#!/usr/bin/env bash
# The common mistakes of a catalog maintainer, run by this opm and by upstream v1.26.5 side by
# side (OPM_UPSTREAM names upstream's binary; skipped without it): each case prints whether
# exit status, stdout and stderr are the same, and both sides' stderr where they differ.
# Messages differ by design (docs/compatibility.md), so a difference is reported, not failed;
# the script fails where ours crashes or hangs, or exits 0 where upstream fails for the same
# mistake (a failure of upstream's that only says its container tool is missing here does
# not count).
source "$OPM_TESTS/cli/lib/common.bash"

if [ -z "${OPM_UPSTREAM:-}" ]; then
  echo "skip: OPM_UPSTREAM does not name upstream's opm"
  exit 77
fi
[ -x "$OPM_UPSTREAM" ] || fail "OPM_UPSTREAM=$OPM_UPSTREAM is not an executable"

# Neither side reads or writes the developer's home, caches or registry settings.
export HOME="$WORK/home" XDG_CACHE_HOME="$WORK/cache" XDG_CONFIG_HOME="$WORK/config"
export CONTAINERS_REGISTRIES_CONF="$WORK/registries.conf"
unset DOCKER_CONFIG REGISTRY_AUTH_FILE OLM_CACHE_DIR
mkdir -p "$HOME" "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME"
: >"$CONTAINERS_REGISTRIES_CONF"

# The inputs every case may name, made afresh in each side's directory.
write_fixtures() { # DIR
  cp "$OPM_TESTS/data/sqlite/kiwi.db" "$1/index.db"
  mkdir -p "$1/default" "$1/syntax/pkg"
  cat >"$1/default/index.yaml" <<'YAML'
schema: olm.package
name: a
defaultChannel: stabel
---
schema: olm.channel
package: a
name: stable
entries:
  - name: a.v1
---
schema: olm.bundle
name: a.v1
package: a
image: example.com/a:v1
properties:
  - type: olm.package
    value: {packageName: a, version: 1.0.0}
YAML
  printf 'schema: olm.package\nname: a\n---\nschema: olm.channel\npackage: a\nname: s\nentries: [\n' \
    >"$1/syntax/pkg/index.yaml"
  printf 'schema: olm.semver\nstable:\n  bundles:\n  - image: localhost:1/ops/bundle:v1\n' \
    >"$1/template.yaml"
}

run_side() { # NAME BINARY ARGS...: runs in $WORK/NAME, leaving rc, stdout and stderr there
  local dir="$WORK/$1" bin=$2
  shift 2
  rm -rf "$dir" && mkdir "$dir" && write_fixtures "$dir"
  local rc=0
  (cd "$dir" && timeout 120 "$bin" "$@" </dev/null >stdout 2>stderr) || rc=$?
  echo "$rc" >"$dir/rc"
  # Timestamps, and the time a refused connection took, say nothing of the behaviour.
  normalize_times <"$dir/stderr" | sed -E 's/after [0-9]+ ms/after N ms/g' >"$dir/stderr.norm"
}

show() { # SIDE: its exit status and stderr, indented
  echo "    $1: exit $(cat "$WORK/$1/rc")"
  sed -e 's/^/      /' "$WORK/$1/stderr.norm" | head -n 12
}

CASES=0
DIFFER=0
VIOLATIONS=()

# What the rules say of one case: a crash or hang of ours (an exit status opm never gives, or
# an internal error on stderr), or ours passing where upstream met the mistake and failed.
judge() { # ARGS...: appends to VIOLATIONS
  local ours upstream
  ours=$(cat "$WORK/ours/rc")
  upstream=$(cat "$WORK/upstream/rc")
  if [ "$ours" -gt 3 ] || grep -qE 'internal error|assertion failed|Sanitizer|runtime error' \
    "$WORK/ours/stderr"; then
    VIOLATIONS+=("opm $*: ours crashed or hung (exit $ours)")
  elif [ "$ours" -eq 0 ] && [ "$upstream" -ne 0 ]; then
    if grep -qF 'executable file not found in' "$WORK/upstream/stderr"; then
      echo "    (upstream could not run its container tool here, so it never met the mistake)"
    else
      VIOLATIONS+=("opm $*: ours exits 0 where upstream exits $upstream")
    fi
  fi
}

side_by_side() { # ARGS...: one mistake, run by both
  CASES=$((CASES + 1))
  run_side ours "$OPM" "$@"
  run_side upstream "$OPM_UPSTREAM" "$@"
  local ours upstream
  ours=$(cat "$WORK/ours/rc")
  upstream=$(cat "$WORK/upstream/rc")
  if [ "$ours" = "$upstream" ] && cmp -s "$WORK/ours/stdout" "$WORK/upstream/stdout" &&
    cmp -s "$WORK/ours/stderr.norm" "$WORK/upstream/stderr.norm"; then
    echo "same:    opm $* (exit $ours)"
  else
    DIFFER=$((DIFFER + 1))
    echo "differ:  opm $* (exit $ours, upstream $upstream)"
    show ours
    show upstream
  fi
  judge "$@"
}

side_by_side render nope.db
side_by_side migrate nope.db out
side_by_side alpha list packages nope
side_by_side render ./nope
side_by_side render localhost:1/ops/catalog:v1
side_by_side index prune --generate --from-index index.db --packages nope
side_by_side registry prune --database index.db --packages nope
side_by_side migrate localhost:1/ops/index:v1 out --use-http
side_by_side validate default
side_by_side validate syntax
side_by_side alpha render-template semver template.yaml
side_by_side version

echo "$CASES cases, $DIFFER differ"
for v in "${VIOLATIONS[@]}"; do
  echo "FAIL: $v" >&2
done
[ "${#VIOLATIONS[@]}" -eq 0 ]
