#!/usr/bin/env bash
# The Debian package cpack makes from the build tree: its Depends name exactly the packages
# that own the libraries opm and opm-serve load, apt can resolve them on this Debian
# (a dry run), and the files it unpacks validate, serve and probe a catalog. The install
# into a fresh debootstrap root is bench/deb_install.sh (minutes, on demand).
source "$OPM_TESTS/serve/lib/common.bash"

BUILD_DIR=$(dirname "$OPM")
[ -f "$BUILD_DIR/CPackConfig.cmake" ] || { echo "skipped: $OPM is not in a build tree"; exit 77; }
for tool in cpack dpkg-deb dpkg-shlibdeps file dpkg readelf; do
  command -v "$tool" >/dev/null || { echo "skipped: no $tool (scripts/install-deps.sh package)"; exit 77; }
done

cpack --config "$BUILD_DIR/CPackConfig.cmake" -B "$WORK/pkg" >cpack.log 2>&1 ||
  fail "cpack failed: $(cat cpack.log)"
deb=$(ls "$WORK"/pkg/opm_*.deb)
dpkg-deb -x "$deb" "$WORK/root" || fail "cannot unpack $deb"

# The packages owning the libraries the two files load directly or by name, as dpkg names them.
needed_packages() {
  local file lib path
  {
    for file in "$WORK/root/usr/bin/opm" "$WORK/root/usr/lib/opm/opm-serve"; do
      readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
    done
    # loaded by name when first needed
    printf '%s\n' libcurl.so.4 libarchive.so.13 libcrypto.so.3 libssl.so.3
  } | sort -u | while read -r lib; do
    path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib && /x86-64|AArch64|64bit/ {print $NF; exit}')
    [ -n "$path" ] || path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib {print $NF; exit}')
    [ -n "$path" ] || { echo "unresolved:$lib"; continue; }
    dpkg -S "$(realpath "$path")" 2>/dev/null | head -1 | cut -d: -f1 ||
      dpkg -S "$path" | head -1 | cut -d: -f1
  done | sort -u
}
needed_packages >needed.txt
grep -q "^unresolved:" needed.txt && fail "libraries not found here: $(grep unresolved needed.txt)"
dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' | sort -u >depends.txt
expect_file depends.txt needed.txt
# mimalloc is opened by name for the commands that run and exit, and only speeds them up.
dpkg-deb -f "$deb" Recommends | tr ',' '\n' | sed 's/^ *//' | grep -qx libmimalloc2.0 ||
  fail "the package does not recommend libmimalloc2.0: $(dpkg-deb -f "$deb" Recommends)"

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  apt-get install -s "$deb" >apt.log 2>&1 || fail "apt cannot install the package: $(cat apt.log)"
fi

OPM="$WORK/root/usr/bin/opm"
run_opm validate "$DATA/catalog"
expect_rc 0
expect_text "$WORK/err" ""
start_server "$DATA/catalog" -t /dev/null
ln -s "$OPM" grpc_health_probe
RC=0
./grpc_health_probe -addr=":$PORT" >probe.out 2>probe.err || RC=$?
expect_rc 0
call api.Registry/ListPackages '{}' >packages.txt || fail "ListPackages: $(cat packages.txt)"
expect_text packages.txt '{"name":"etcd"}
{"name":"prometheus"}
{"name":"vault"}
'
stop_server
expect_rc 0
echo ok
