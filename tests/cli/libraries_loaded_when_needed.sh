#!/usr/bin/env bash
# OpenSSL, libcurl and libarchive are loaded by name when a command first needs them, not by
# every command at start: version, validate and render of a catalog directory open none of
# them. Rendering a bundle image from an OCI layout opens libcrypto, whose digests check each
# blob it reads, and libarchive, which unpacks the layer, and answers with the bundle.
source "$OPM_TESTS/cli/lib/common.bash"

# opened ARGS...: the sonames of the libraries the loader opens for `opm ARGS...`, at start or
# later, one per line.
opened() {
  LD_DEBUG=files "$OPM" "$@" 2>&1 >/dev/null |
    sed -n 's/^ *[0-9]*:[[:space:]]*file=\([^ ]*\) \[[0-9]*\];  *\(needed\|dynamically loaded\) by .*/\1/p' |
    sed 's|.*/||' | sort -u
}

# A name the loader never opened for `opm ARGS...`: none of libcrypto, libssl, libcurl or
# libarchive.
expect_none_opened() { # ARGS...
  opened "$@" >opened.txt
  [ -s opened.txt ] || fail "the loader reported nothing for opm $*"
  if grep -E '^lib(crypto|ssl|curl|archive)\.so' opened.txt >found.txt; then
    fail "opm $* opened $(tr '\n' ' ' <found.txt)"
  fi
}

cp -r "$OPM_TESTS/../examples/catalog" cat
expect_none_opened version
expect_none_opened validate cat
expect_none_opened render cat -o yaml

bundle_layouts "$OPM_TESTS/data/bundles" "$WORK/layouts"
opened render "oci:$WORK/layouts/full" >opened.txt
grep -qx 'libcrypto.so.3' opened.txt || fail "render of a layout did not open libcrypto: $(cat opened.txt)"
grep -qx 'libarchive.so.13' opened.txt || fail "render of a layout did not open libarchive: $(cat opened.txt)"
run_opm render "oci:$WORK/layouts/full"
expect_rc 0
grep -q '"schema": "olm.bundle"' out || fail "no bundle rendered: $(cat out err)"
exit 0
