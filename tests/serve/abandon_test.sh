#!/usr/bin/env bash
# Clients that cancel a ListBundles stream, or close their connection, after its first
# message, while the server still has most of the answer to send: the server keeps
# answering, a later listing is whole, and SIGTERM still ends it with exit 0 (in the
# sanitizer build, also without a leak).
source "$OPM_TESTS/serve/lib/common.bash"

# 300 bundles of about 2 KB each in the listing: far more than a client's first window.
padding=$(printf 'p%.0s' $(seq 1 2000))
mkdir big
{
  printf '{"schema":"olm.package","name":"big","defaultChannel":"stable"}\n'
  printf '{"schema":"olm.channel","name":"stable","package":"big","entries":['
  for i in $(seq 0 299); do
    [ "$i" -gt 0 ] && printf ',{"name":"big.v0.0.%d","replaces":"big.v0.0.%d"}' "$i" $((i - 1))
    [ "$i" -eq 0 ] && printf '{"name":"big.v0.0.0"}'
  done
  printf ']}\n'
  for i in $(seq 0 299); do
    printf '{"schema":"olm.bundle","name":"big.v0.0.%d","package":"big","image":"example.com/big:v0.0.%d",' "$i" "$i"
    printf '"properties":[{"type":"olm.package","value":{"packageName":"big","version":"0.0.%d"}},' "$i"
    printf '{"type":"test.padding","value":"%s"}]}\n' "$padding"
  done
} >big/catalog.json

start_server big -t /dev/null
"$PYTHON" "$OPM_TESTS/serve/lib/abandon.py" "127.0.0.1:$PORT" 8 10 >abandon.txt ||
  fail "abandoning clients failed: $(cat abandon.txt)"
expect_text abandon.txt $'abandoned=80\n'

call api.Registry/ListBundles >listing.txt
[ "$(wc -l <listing.txt)" -eq 300 ] || fail "listing after abandoned streams: $(wc -l <listing.txt) lines"
grep -q '"csvName":"big.v0.0.299"' listing.txt || fail "listing lacks the last bundle"
call grpc.health.v1.Health/Check >health.txt
expect_text health.txt $'{"status":"SERVING"}\n'

stop_server
expect_rc 0
normalize_times <server.err | tail -n 1 >last.txt
expect_text last.txt "time=\"T\" level=info msg=\"shutting down...\" configs=big port=$PORT
"
echo ok
