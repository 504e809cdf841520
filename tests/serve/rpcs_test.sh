#!/usr/bin/env bash
# Every api.Registry rpc, the health check and unknown methods against a fixture catalog with
# two packages, several channels, skips, a skipRange, provided and required APIs, package
# dependencies, deprecations and a custom schema: the answers match the golden file.
source "$OPM_TESTS/serve/lib/common.bash"

start_server "$DATA/catalog" -t "$WORK/termination-log"
run_calls "127.0.0.1:$PORT" "$DATA/calls.txt" >answers.txt
expect_file answers.txt "$DATA/answers.txt"

# Reflection lists the services and serves our registry.proto with the file it imports.
call reflection/list >services.txt
expect_text services.txt $'api.ExperimentalRegistry\napi.Registry\ngrpc.health.v1.Health\ngrpc.reflection.v1.ServerReflection\ngrpc.reflection.v1alpha.ServerReflection\n'
call reflection/file api.Registry >file.txt
expect_text file.txt $'registry.proto api Registry ExperimentalRegistry\ngoogle/protobuf/struct.proto google.protobuf \n'
# Reflection v1, which current clients ask first, answers the same, and says what it cannot find.
call reflection-v1/list >services-v1.txt
expect_file services-v1.txt services.txt
call reflection-v1/file api.Registry >file-v1.txt
expect_file file-v1.txt file.txt
call reflection-v1/filename registry.proto >filename-v1.txt
expect_file filename-v1.txt file.txt
call reflection-v1/file grpc.reflection.v1.ServerReflection >self-v1.txt
expect_text self-v1.txt $'reflection_v1.proto grpc.reflection.v1 ServerReflection\n'
call reflection-v1/file api.Nope >missing-v1.txt
expect_text missing-v1.txt $'reflection error 5: Symbol not found.\n'

stop_server
expect_rc 0
normalize_times <server.err >server.err.norm
expect_text server.err.norm "time=\"T\" level=info msg=\"serving registry\" configs=$DATA/catalog port=$PORT
time=\"T\" level=info msg=\"shutting down...\" configs=$DATA/catalog port=$PORT
"
[ -s server.out ] && fail "unexpected stdout: $(cat server.out)"
# The termination log is created and, as upstream's, left empty.
[ -f termination-log ] && [ ! -s termination-log ] || fail "termination log not created empty"
echo ok
