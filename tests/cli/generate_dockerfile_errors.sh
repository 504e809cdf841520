#!/usr/bin/env bash
# opm generate dockerfile refuses bad input in upstream's order and never leaves a
# partial or replaced file behind.
source "$OPM_TESTS/cli/lib/common.bash"

usage_error() { # MESSAGE: stderr is "Error: MESSAGE", the usage block and a blank line
  { printf 'Error: %s\n' "$1"; sed -n '/^Usage:/,$p' "$DATA/generate_dockerfile_help.txt"; printf '\n'; } >expected_usage
  expect_file err expected_usage
}

mkdir cat
run_opm generate dockerfile cat -b scratch
expect_rc 1
usage_error 'invalid builder image: "scratch"'

run_opm generate dockerfile cat -l novalue
expect_rc 1
usage_error 'invalid label "novalue"'

run_opm generate dockerfile cat -l 'z="q"'
expect_rc 1
usage_error 'invalid argument "z=\"q\"" for "-l, --extra-labels" flag: parse error on line 1, column 3: bare " in non-quoted-field'

run_opm generate dockerfile cat -l '"open'
expect_rc 1
usage_error 'invalid argument "\"open" for "-l, --extra-labels" flag: parse error on line 1, column 6: extraneous or missing " in quoted-field'

run_opm generate dockerfile cat -i a --binary-image b
expect_rc 1
[ "$(head -1 err)" = 'Flag --binary-image has been deprecated, use --base-image instead' ] || fail "$(head -1 err)"
tail -n +2 err >err.rest && mv err.rest err
usage_error 'if any flags in the group [binary-image base-image] are set none of the others can be; [base-image binary-image] were all set'

run_opm generate dockerfile cat extra
expect_rc 1
usage_error 'accepts 1 arg(s), received 2'

run_opm generate dockerfile nodir
expect_rc 1
usage_error 'stat nodir: no such file or directory'

touch afile
run_opm generate dockerfile afile
expect_rc 1
usage_error 'provided root path "afile" is not a directory'
[ -e afile.Dockerfile ] && fail "a Dockerfile was written for a file"

# Any other failure to check for an existing Dockerfile is fatal (the path's parent
# is a file here).
run_opm generate dockerfile afile/cat
expect_rc 1
expect_err_line 'time="T" level=fatal msg="stat afile/cat.Dockerfile: not a directory"'

# An existing Dockerfile is never touched.
printf 'mine\n' >cat.Dockerfile
run_opm generate dockerfile cat/
expect_rc 1
expect_err_line 'time="T" level=fatal msg="path \"cat.Dockerfile\": file already exists"'
expect_text cat.Dockerfile $'mine\n'
rm cat.Dockerfile

# An empty base image is reported as upstream does, but no (empty) file is created.
run_opm generate dockerfile cat -i ''
expect_rc 1
expect_err_line 'DATE base image is unset'
[ -e cat.Dockerfile ] && fail "a file was created for an unset base image"

# A directory that cannot be written to: the OS error, and nothing left behind.
if [ "$(id -u)" -ne 0 ]; then
  mkdir -p ro/cat && chmod 555 ro
  run_opm generate dockerfile ro/cat
  expect_rc 1
  expect_err_line 'time="T" level=fatal msg="open ro/cat.Dockerfile: permission denied"'
  chmod 755 ro
  [ -z "$(ls -A ro | grep -v '^cat$')" ] || fail "files left in ro: $(ls -A ro)"
fi
[ -z "$(ls -A | grep '\.tmp')" ] || fail "temporary files left: $(ls -A)"
exit 0
