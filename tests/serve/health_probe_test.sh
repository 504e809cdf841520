#!/usr/bin/env bash
# grpc_health_probe, the second name of opm that catalog pods probe with: its flags and exit
# codes against a real `opm serve` and real gRPC servers on loopback.
source "$OPM_TESTS/serve/lib/common.bash"

mkdir -p bin
ln -s "$OPM" bin/grpc_health_probe
export PATH="$WORK/bin:$PATH"

# probe ARGS...: grpc_health_probe found on PATH by name, as an exec probe runs it; stdout
# in out, stderr in err, the status in $RC.
probe() {
  RC=0
  grpc_health_probe "$@" >"$WORK/out" 2>"$WORK/err" || RC=$?
}

# The server the probe must reach: a catalog being served.
start_server "$DATA/catalog" -t /dev/null

# Connecting gets 10 s, not the default 1 s: a machine busy with other suites can take longer.
probe -addr=":$PORT" -connect-timeout=10s
expect_rc 0
expect_text err "status: SERVING
"
expect_text out ""

probe -addr "127.0.0.1:$PORT" --connect-timeout 2s -rpc-timeout=1500ms -service= \
  -user-agent=kubelet -rpc-header 'x-probe: yes' -gzip -v=false
expect_rc 0
expect_text err "status: SERVING
"

# Arguments the tool refuses: status 1, one line.
probe
expect_rc 1
expect_text err "error: -addr not specified
"
probe -addr=":$PORT" -connect-timeout=0s
expect_rc 1
expect_text err "error: -connect-timeout must be greater than zero (specified: 0s)
"
probe -addr=":$PORT" -rpc-timeout=-1m30s
expect_rc 1
expect_text err "error: -rpc-timeout must be greater than zero (specified: -1m30s)
"
probe -addr=":$PORT" -tls-no-verify
expect_rc 1
expect_text err "error: specified -tls-no-verify without specifying -tls
"
probe -addr=":$PORT" -tls -tls-client-cert=c.pem
expect_rc 1
expect_text err "error: specified -tls-client-cert without specifying -tls-client-key
"
probe -addr=":$PORT" -tls -tls-ca-cert=missing.pem
expect_rc 1
expect_text err "failed to initialize tls credentials. error=failed to load root CA certificates from file (missing.pem) error=open missing.pem: no such file or directory
"

# Flags Go's flag package refuses: the reason, then the usage, status 2.
probe -addr=":$PORT" -bogus
expect_rc 2
expect_eq "unknown flag" "flag provided but not defined: -bogus" "$(head -n 1 err)"
grep -qx "Usage of grpc_health_probe:" err || fail "no usage after the error: $(cat err)"
probe -rpc-timeout=soon
expect_rc 2
expect_eq "bad duration" 'invalid value "soon" for flag -rpc-timeout: parse error' "$(head -n 1 err)"
probe -tls=maybe
expect_rc 2
expect_eq "bad boolean" 'invalid boolean value "maybe" for -tls: parse error' "$(head -n 1 err)"
probe -addr
expect_rc 2
expect_eq "missing value" "flag needs an argument: -addr" "$(head -n 1 err)"
probe -h
expect_rc 0
expect_eq "help" "Usage of grpc_health_probe:" "$(head -n 1 err)"

probe -addr=":$PORT" -spiffe
expect_rc 20

# Nothing listening: a connection failure once the connect timeout has passed.
stop_server
probe -addr=":$PORT" -connect-timeout=300ms
expect_rc 2
expect_text err "timeout: failed to connect service \":$PORT\" within 300ms
"

# A gRPC server without the health service, and one whose health answer is NOT_SERVING.
for mode in no-health not-serving; do
  PORT=$(free_port)
  "$PYTHON" "$OPM_TESTS/serve/lib/health_server.py" "$PORT" "$mode" >server.out 2>server.err &
  SERVER_PID=$!
  for _ in $(seq 1 100); do grep -q ready server.out && break; sleep 0.1; done
  probe -addr="127.0.0.1:$PORT" -connect-timeout=5s
  if [ "$mode" = no-health ]; then
    expect_rc 3
    expect_text err "error: this server does not implement the grpc health protocol (grpc.health.v1.Health)
"
  else
    expect_rc 4
    expect_text err "service unhealthy (responded with \"NOT_SERVING\")
"
  fi
  kill -KILL "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null
  SERVER_PID=""
done
echo ok
