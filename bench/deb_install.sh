#!/usr/bin/env bash
# The Debian package on a fresh Debian 12: `cpack` makes opm_<version>_<arch>.deb from a
# build tree, debootstrap makes a minimal bookworm root (or DEBIAN_ROOT names one made
# before, which is copied), `apt install ./opm_*.deb` installs it there with the
# dependencies its Depends name, then `opm validate` and `opm serve` run from the root and
# a gRPC client lists the served packages from outside. Needs root, debootstrap, dpkg-dev
# and the Debian mirror; about 3-6 minutes on a 2-core machine, so it runs on demand rather
# than in the test suite.
#   bench/deb_install.sh [BUILD_DIR]        default build/release
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="$(realpath "${1:-$repo/build/release}")"
work="$(mktemp -d "${TMPDIR:-/tmp}/opm-deb.XXXXXX")"
server=""
cleanup() {
  [ -n "$server" ] && kill -KILL "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

cpack --config "$build/CPackConfig.cmake" -B "$work/pkg" >"$work/cpack.log"
deb=$(ls "$work"/pkg/opm_*.deb)
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
echo "Depends: $(dpkg-deb -f "$deb" Depends)"

root="$work/root"
start=$(date +%s)
if [ -n "${DEBIAN_ROOT:-}" ]; then
  cp -a "$DEBIAN_ROOT" "$root"
else
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
cp -r "$repo/tests/data/serve/catalog" "$root/tmp/catalog"

# in_root COMMAND...: COMMAND in the root with /proc mounted in a private mount namespace.
in_root() {
  unshare --mount --pid --fork --kill-child -- /bin/sh -c \
    'mount -t proc proc "$1/proc" && root=$1 && shift && exec chroot "$root" "$@"' \
    in_root "$root" "$@"
}
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "/tmp/$(basename "$deb")" >"$work/apt.log"
echo "installed in $(($(date +%s) - start)) s: $(in_root opm version | head -c 200)"

in_root opm validate /tmp/catalog
echo "opm validate: ok"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
in_root opm serve /tmp/catalog -p "$port" -t /dev/null 2>"$work/serve.err" &
server=$!
PROTOC=${PROTOC:-protoc}
export PROTOC
source "$repo/tests/serve/lib/calls.sh"
OPM_TESTS="$repo/tests" wait_serving "127.0.0.1:$port" "$server" || {
  cat "$work/serve.err" >&2
  exit 1
}
OPM_TESTS="$repo/tests" /usr/bin/python3 "$repo/tests/serve/lib/client.py" "127.0.0.1:$port" \
  api.Registry/ListPackages '{}'
echo "opm serve: ok"
