#!/usr/bin/env bash
# opm registry serve over databases this project's own `opm registry add` and
# `opm index add` wrote from the tests/data/sqlite bundles: every rpc answers as upstream's
# `registry serve` answered on such a database (tests/data/serve/registry/README.md).
source "$(dirname "$0")/harness.sh"

if ! /usr/bin/python3 -c 'import grpc, google.protobuf' 2> /dev/null || ! command -v protoc > /dev/null; then
  echo "skipped: needs python3-grpcio and protoc"
  exit 77
fi
source "$OPM_TESTS/serve/lib/calls.sh"

start_registry plain
R=http://$REG
SQL=$OPM_TESTS/data/sqlite
GOLDEN=$OPM_TESTS/data/serve/registry
push_sqlite_bundles
kiwis=$REG/test/kiwi-bundle:v0.1.0,$REG/test/kiwi-bundle:v0.2.0,$REG/test/kiwi-bundle:v0.3.0

# serve_and_compare NAME DB GOLDEN: serves DB, runs every call, compares with GOLDEN (its
# bundle paths moved to this registry), and checks the database was not written.
serve_and_compare() {
  local name=$1 db=$2 golden=$3 port pid
  cp "$db" "$WORK/before.db"
  port=$(free_port)
  start "serve-$name" "$OPM" registry serve -d "$db" -p "$port" -t /dev/null
  pid=$(tail -n 1 "$WORK/pids" | cut -d' ' -f1)
  check "$name: the server answers SERVING" wait_serving "127.0.0.1:$port" "$pid"
  run_calls "127.0.0.1:$port" "$GOLDEN/calls.txt" > "$WORK/answers-$name.txt"
  sed "s#127.0.0.1:5231#$REG#g" "$golden" > "$WORK/expected-$name.txt"
  check "$name: every answer is upstream's" cmp -s "$WORK/answers-$name.txt" "$WORK/expected-$name.txt"
  kill -TERM "$pid"
  wait_exit "$pid" 30
  check "$name: SIGTERM stops the server with exit 0" test "$RC" = 0
  check "$name: the database file is unchanged" cmp -s "$db" "$WORK/before.db"
  check "$name: the temporary copy is gone" tmp_empty
}

expect_ok "registry add of four bundles" registry add --use-http -d "$WORK/kiwi.db" \
  -b "$kiwis,$REG/test/plum-bundle:v1.0.0"
serve_and_compare registry-add "$WORK/kiwi.db" "$GOLDEN/registry-add-answers.txt"

mkdir "$WORK/semver" && cd "$WORK/semver" || exit 1
expect_ok "index add --mode semver" index add --use-http --generate --mode semver -b "$kiwis"
cd "$WORK" || exit 1
serve_and_compare index-add "$WORK/semver/database/index.db" "$GOLDEN/index-add-answers.txt"
finish
