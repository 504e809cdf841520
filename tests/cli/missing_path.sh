#!/usr/bin/env bash
# A reference that is neither an existing path nor an image reference was most likely meant as
# a path: render, migrate and alpha list name the missing path first, then why it is no image
# reference either.
source "$OPM_TESTS/cli/lib/common.bash"

run_opm render nope.db
expect_rc 1
expect_err_line 'DATE render reference "nope.db": stat nope.db: no such file or directory; not an image reference either: repository name must be canonical; did you mean "docker.io/library/nope.db:latest"?'

run_opm render ./nope
expect_rc 1
expect_err_line 'DATE render reference "./nope": stat ./nope: no such file or directory; not an image reference either: invalid reference format'

run_opm migrate nope.db migrated
expect_rc 1
grep -qF 'stat nope.db: no such file or directory; not an image reference either: repository name must be canonical' err \
  || fail "migrate: $(cat err)"

run_opm alpha list packages nope
expect_rc 1
grep -qF 'stat nope: no such file or directory; not an image reference either: repository name must be canonical; did you mean \"docker.io/library/nope:latest\"?' err \
  || fail "alpha list: $(cat err)"

# An existing file that is not a catalog keeps upstream's answer.
touch afile
run_opm render afile
expect_rc 1
expect_err_line 'DATE render reference "afile": ref "afile" is not a directory: not allowed'
exit 0
