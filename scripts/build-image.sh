#!/usr/bin/env bash
# Builds the opm base image, without a container engine, for this machine's architecture:
# /bin/opm and /bin/opm-serve (stripped), /bin/grpc_health_probe (a second name
# of /bin/opm), exactly the shared libraries they load and the dynamic loader, CA
# certificates, /etc/passwd and /etc/group entries for user 1001, /etc/nsswitch.conf and a
# writable /tmp; no shell. Configured as upstream's opm image: entrypoint ["/bin/opm"],
# user 1001, working directory /, the OCI labels. Every timestamp is SOURCE_DATE_EPOCH
# (default: the time of the last commit), so the same inputs give the same digest.
#
#   scripts/build-image.sh [--opm BINARY] --tag DEST
#
# BINARY defaults to the release build (build/release/opm, opm-serve beside it). A BINARY
# built for another architecture (arm64, see cmake/toolchains/) gives an image for it: its
# libraries are listed by its own dynamic loader under qemu-user-static and taken from
# CROSS_SYSROOT (default /, where Debian's multiarch packages put them), and the image is
# assembled by this machine's build (HOST_OPM, default build/release/opm). DEST is
# a registry reference (pushed), oci:DIR[:TAG] or docker-archive:FILE[:REPO:TAG]. The
# image's digest is printed. Registry flags of opm (--use-http, --skip-tls-verify) can
# follow `--`. OPM_IMAGE_SOURCE and OPM_IMAGE_LICENSES set the source and licenses labels.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout="$PWD"

usage() {
  echo "usage: scripts/build-image.sh [--opm BINARY] --tag DEST [-- OPM_FLAGS...]" >&2
  exit 1
}

opm="$checkout/build/release/opm"
tag=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --opm) [ $# -ge 2 ] || usage; opm="$2"; shift 2 ;;
    --opm=*) opm="${1#--opm=}"; shift ;;
    --tag) [ $# -ge 2 ] || usage; tag="$2"; shift 2 ;;
    --tag=*) tag="${1#--tag=}"; shift ;;
    --) shift; extra=("$@"); break ;;
    *) usage ;;
  esac
done
[ -n "$tag" ] || usage
opm="$(realpath "$opm")"
program="$(dirname "$opm")/opm-serve"
for f in "$opm" "$program"; do
  [ -f "$f" ] || { echo "build-image: $f not found (build the release preset first)" >&2; exit 1; }
done

work="$(mktemp -d "${TMPDIR:-/tmp}/opm-build-image.XXXXXX")"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root/bin" "$root/etc/ssl/certs" "$root/tmp"
chmod 1777 "$root/tmp"

# The binary's architecture decides the image's platform, its strip and how its libraries are
# found.
machine="$(readelf -h "$opm" | sed -n 's/^ *Machine: *//p')"
host_machine="$(readelf -h "$(command -v readelf)" | sed -n 's/^ *Machine: *//p')"
assembler="$opm"
platform=()
strip_tool=strip
sysroot=""
list_libraries() { ldd "$1"; }
if [ "$machine" != "$host_machine" ]; then
  case "$machine" in
    AArch64)
      sysroot="$(realpath "${CROSS_SYSROOT:-/}")"
      platform=(--platform linux/arm64)
      strip_tool=aarch64-linux-gnu-strip
      list_libraries() {
        qemu-aarch64-static -L "$sysroot" "${sysroot%/}/lib/ld-linux-aarch64.so.1" --list "$1" |
          sed "s|${sysroot%/}/lib/ld-linux|/lib/ld-linux|"
      }
      ;;
    *) echo "build-image: no cross support for $machine binaries" >&2; exit 1 ;;
  esac
  assembler="$(realpath "${HOST_OPM:-$checkout/build/release/opm}")"
fi

"$strip_tool" --strip-unneeded -o "$root/bin/opm" "$opm"
"$strip_tool" --strip-unneeded -o "$root/bin/opm-serve" "$program"
chmod 0755 "$root/bin/opm" "$root/bin/opm-serve"
ln -s opm "$root/bin/grpc_health_probe"

# Every library the two executables load, at the path the loader finds it under, and the
# loader itself (ldd lists both, with their whole dependency closure).
libraries() {
  list_libraries "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
}
{ libraries "$opm"; libraries "$program"; } | sort -u >"$work/libraries"
# libcurl, libarchive and OpenSSL, which opm loads by name when it first needs them (found
# beside libc), and what they load; and mimalloc, which opm opens by name for the commands
# that run and exit, where it is installed (without it they run on glibc's heap).
library_dir="$(dirname "$(grep '/libc\.so\.6$' "$work/libraries")")"
add_loaded_library() { # PATH
  { cat "$work/libraries"; echo "$1"; libraries "${sysroot%/}$1" |
    sed "s|^${sysroot%/}/|/|"; } | sort -u >"$work/libraries.all"
  mv "$work/libraries.all" "$work/libraries"
}
for soname in libcurl.so.4 libarchive.so.13 libcrypto.so.3 libssl.so.3; do
  [ -e "${sysroot%/}$library_dir/$soname" ] || { echo "build-image: no $library_dir/$soname" >&2; exit 1; }
  add_loaded_library "$library_dir/$soname"
done
if [ -e "${sysroot%/}$library_dir/libmimalloc.so.2" ]; then
  add_loaded_library "$library_dir/libmimalloc.so.2"
fi
while read -r lib; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "${sysroot%/}$lib" "$root$lib"
  chmod 0755 "$root$lib"
done <"$work/libraries"
find "$root" -type d -exec chmod 0755 {} +
chmod 1777 "$root/tmp"

cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
printf 'root:x:0:0:root:/root:/sbin/nologin\nopm:x:1001:1001:opm:/:/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\nopm:x:1001:\n' >"$root/etc/group"
printf 'hosts: files dns\n' >"$root/etc/nsswitch.conf"
chmod 0644 "$root/etc/passwd" "$root/etc/group" "$root/etc/nsswitch.conf" \
  "$root/etc/ssl/certs/ca-certificates.crt"

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH="$(git -C "$checkout" log -1 --format=%ct 2>/dev/null || echo 0)"
fi
export SOURCE_DATE_EPOCH
version="v$(sed -n 's/^project(opm VERSION \([0-9.]*\).*/\1/p' "$checkout/CMakeLists.txt")"
revision="$(git -C "$checkout" rev-parse HEAD 2>/dev/null || echo unknown)"
source_url="${OPM_IMAGE_SOURCE:-$(git -C "$checkout" config --get remote.origin.url 2>/dev/null || true)}"
created="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)"

labels=(
  --label "org.opencontainers.image.created=$created"
  --label "org.opencontainers.image.licenses=${OPM_IMAGE_LICENSES:-NOASSERTION}"
  --label "org.opencontainers.image.revision=$revision"
  --label "org.opencontainers.image.title=opm"
  --label "org.opencontainers.image.version=$version"
)
if [ -n "$source_url" ]; then
  labels+=(--label "org.opencontainers.image.source=$source_url")
fi

"$assembler" "${extra[@]}" __build-image "$root" --tag "$tag" "${labels[@]}" "${platform[@]}" \
  --entrypoint /bin/opm --user 1001 --workdir / \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
