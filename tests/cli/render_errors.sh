#!/usr/bin/env bash
# render reports fatal errors as Go log lines, wrapped with the reference, located where
# possible, and writes nothing to stdout when any reference fails.
source "$OPM_TESTS/cli/lib/common.bash"

mkdir good bad
printf '{"schema":"olm.package","name":"a"}\n' >good/a.json
printf '{"schema":"olm.package","name":"a"}\n{"schema": "olm.channel", "package": "a", "entries": 5}\n' >bad/a.json

run_opm render good bad
expect_rc 1
[ -s out ] && fail "partial output: $(cat out)"
expect_err_line 'DATE bad/a.json:2: render reference "bad": parse channel: json: cannot unmarshal number into Go struct field Channel.entries of type []declcfg.ChannelEntry'

run_opm render good -o xml
expect_rc 1
expect_err_line 'DATE invalid --output value "xml", expected (json|yaml)'

touch afile
run_opm render afile
expect_rc 1
expect_err_line 'DATE render reference "afile": ref "afile" is not a directory: not allowed'

run_opm render
expect_rc 1
head -1 err >first
expect_text first $'Error: requires at least 1 arg(s), only received 0\n'

run_opm render good --migrate --migrate-level none
expect_rc 1
head -1 err >first
expect_text first $'Error: if any flags in the group [migrate migrate-level] are set none of the others can be; [migrate migrate-level] were all set\n'

run_opm render good --migrate-level bogus
expect_rc 1
expect_err_line 'DATE unknown migration level "bogus"'

# The global TLS flags are checked before any reference is looked at.
run_opm render good --use-http --skip-tls-verify
expect_rc 1
[ -s out ] && fail "output despite a flag error: $(cat out)"
expect_err_line 'DATE invalid flag combination: --use-http and --skip-tls-verify cannot both be true'

run_opm render good --use-http --skip-tls
expect_rc 1
expect_err_line $'Flag --skip-tls has been deprecated, use --use-http and --skip-tls-verify instead\nDATE invalid flag combination: cannot use --use-http with --skip-tls'

run_opm render good --skip-tls-verify --skip-tls
expect_rc 1
expect_err_line $'Flag --skip-tls has been deprecated, use --use-http and --skip-tls-verify instead\nDATE invalid flag combination: cannot use --skip-tls-verify with --skip-tls'

run_opm alpha render-graph good --use-http --skip-tls-verify
expect_rc 1
expect_err_line 'DATE invalid flag combination: --use-http and --skip-tls-verify cannot both be true'
