#!/usr/bin/env bash
# The command line latest upstream's catalog pods run `opm serve` with starts this server
# unchanged: --pprof-capture-profiles is accepted (and does nothing), with or without a
# pprof address.
source "$OPM_TESTS/serve/lib/common.bash"

start_server "$DATA/catalog" --cache-dir cache --cache-enforce-integrity=false \
  --pprof-capture-profiles -t /dev/null
call api.Registry/ListPackages >packages.txt
expect_text packages.txt $'{"name":"etcd"}\n{"name":"prometheus"}\n{"name":"vault"}\n'
stop_server
expect_rc 0

run_opm serve "$DATA/catalog" --pprof-capture-profiles=true --pprof-addr=localhost:6060 \
  --cache-only -t /dev/null
expect_rc 0
[ -s out ] || [ -s err ] && fail "unexpected output: $(cat out err)"
echo ok
