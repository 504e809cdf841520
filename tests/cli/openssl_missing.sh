#!/usr/bin/env bash
# Where OpenSSL cannot be loaded, a command that needs a digest stops with one line naming the
# library and the loader's reason, exit 1 and nothing on standard output; a command that needs
# none (validate, render of a catalog directory) runs as usual.
source "$OPM_TESTS/cli/lib/common.bash"

: "${OPM_WITHOUT_OPENSSL:?OPM_WITHOUT_OPENSSL must name the library that refuses OpenSSL}"
# The sanitizer runtime checks that it comes first; here the preloaded library does.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
without_openssl() { # ARGS...: run_opm with OpenSSL refused
  LD_PRELOAD="$OPM_WITHOUT_OPENSSL" run_opm "$@"
}

cp -r "$OPM_TESTS/../examples/catalog" cat
without_openssl validate cat
expect_rc 0
expect_text "$WORK/err" ""
without_openssl render cat -o json
expect_rc 0
[ -s out ] || fail "render printed nothing"

bundle_layouts "$OPM_TESTS/data/bundles" "$WORK/layouts"
without_openssl render "oci:$WORK/layouts/full"
expect_rc 1
expect_text "$WORK/err" "opm: cannot load libcrypto.so.3: cannot open shared object file: No such file or directory
"
expect_text "$WORK/out" ""
exit 0
