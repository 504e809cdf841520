#!/usr/bin/env bash
# Built with OPM_STATIC_LIBRARIES (the default outside the sanitizer builds), opm and opm-serve
# carry libstdc++, libgcc, fmt, toml++, libyaml, SQLite and zlib in themselves: the loader opens
# libc and libm alone at their start (and names itself, whose _dl_find_object libgcc's unwinder
# calls). The sanitizer builds link them shared, and skip this.
source "$OPM_TESTS/cli/lib/common.bash"
[ "${OPM_STATIC_LIBRARIES:-0}" = 1 ] || exit 77

# needed PROGRAM: the libraries PROGRAM names for the loader, on one line.
needed() { readelf -dW "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' | sed 's/^ld-linux.*/ld.so/' | sort | tr '\n' ' '; }

for program in "$OPM" "$(dirname "$OPM")/opm-serve"; do
  [ -x "$program" ] || fail "no $program"
  got=$(needed "$program")
  [ "$got" = "ld.so libc.so.6 libm.so.6 " ] || fail "$(basename "$program") needs: $got"
done

# What the libraries did is done from the executable: a YAML catalog read (libyaml, fmt), a
# registries.conf parsed, and its error reported (toml++).
cp -r "$OPM_TESTS/../examples/catalog" cat
run_opm validate cat
expect_rc 0
expect_text out ""
printf 'unqualified-search-registries = [\n' >broken.conf
CONTAINERS_REGISTRIES_CONF=$WORK/broken.conf run_opm render example.invalid/x:latest
expect_rc 1
grep -qF 'loading registries configuration "'"$WORK"'/broken.conf": Error while parsing array: encountered end-of-file' err ||
  fail "the broken registries.conf was not reported as toml++ reports it: $(cat err)"
printf '[[registry]]\nprefix = "example.invalid"\nlocation = "127.0.0.1:1"\n' >mirror.conf
CONTAINERS_REGISTRIES_CONF=$WORK/mirror.conf run_opm render example.invalid/x:latest
expect_rc 1
grep -qF 'pinging container registry 127.0.0.1:1' err ||
  fail "the registry's location from registries.conf was not used: $(cat err)"
exit 0
