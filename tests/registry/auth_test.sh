#!/usr/bin/env bash
# Authentication: htpasswd Basic, bearer tokens (anonymous, with credentials, identity
# tokens, refresh after invalid_token), every credential source in order, and no secret
# in any output.
source "$(dirname "$0")/harness.sh"

if ! make_htpasswd alice:wonderland bob:builder; then
  echo "skip: no bcrypt support in python3's crypt module"
  exit 77
fi
make_pki
start_registry basic "auth:" "  htpasswd:" "    realm: opm-test" "    path: $WORK/htpasswd"
BASIC=$REG
start_token_server tokens --user alice:wonderland --anonymous-pull
TOKSRV=$TOKEN_SERVER
start_registry token "$(token_yaml "http://$TOKSRV/token")"
TOKEN=$REG
start_token_server tokens-tls --user alice:wonderland --tls-cert "$WORK/pki/server.crt" --tls-key "$WORK/pki/server.key"
TOKSRV_TLS=$TOKEN_SERVER
start_registry tokentls "$(tls_yaml)" "$(token_yaml "https://$TOKSRV_TLS/token")"
TOKEN_TLS=$REG

B=$WORK/bundle
make_bundle_dir "$B" etcd
push_image "http://$BASIC" operators/etcd v1 --files "$B" --label auth=basic --user alice:wonderland > /dev/null
push_image "http://$BASIC" other/etcd v1 --files "$B" --label auth=basic --user alice:wonderland > /dev/null
for t in v1 v2 v3; do
  push_image "http://$TOKEN" ops/etcd $t --files "$B" --label auth=token --label tag=$t --user alice:wonderland > /dev/null
done
push_image "https://$TOKEN_TLS" ops/etcd v1 --files "$B" --label auth=tokentls --user alice:wonderland --cacert "$WORK/pki/ca.crt" > /dev/null

b64() { printf %s "$1" | base64 | tr -d '\n'; }
auths() { # HOSTKEY USER:PASSWORD
  printf '{"auths":{"%s":{"auth":"%s"}}}\n' "$1" "$(b64 "$2")"
}
all_output() { cat "$WORK/out" "$WORK/err"; }
no_secret() {
  ! all_output | grep -qE "wonderland|$(b64 alice:wonderland)|$(b64 alice:wrong)|eyJ|refresh-alice|helper-secret"
}
token_stats() { python3 "$TOOLS/httpreq.py" GET "http://$1/_stats" 2> /dev/null; }
reset_stats() { python3 "$TOOLS/httpreq.py" GET "http://$1/_config?reset=1" > /dev/null 2>&1; }

# --- Basic ---------------------------------------------------------------------------------
expect_fail "basic: no credentials" "unauthorized: authentication required" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
check "basic: the error lists the files searched" err_has "no credentials found for $BASIC in $HOME/.docker/config.json"

mkdir -p "$WORK/dc"
auths "$BASIC" alice:wonderland > "$WORK/dc/config.json"
DOCKER_CONFIG=$WORK/dc expect_ok "basic: DOCKER_CONFIG" __pull --use-http --no-cache --debug --labels "$BASIC/operators/etcd:v1"
check "basic: labels" out_has '{"auth":"basic"}'
check "basic: debug output names the file, not the secret" err_has "credentials for $BASIC/operators/etcd from $WORK/dc/config.json"
check "basic: no secret at debug level" no_secret

auths "$BASIC" alice:wrong > "$WORK/dc/config.json"
DOCKER_CONFIG=$WORK/dc expect_fail "basic: a wrong password is not retried anonymously" "unauthorized: authentication required" \
  __pull --use-http --no-cache --debug --labels "$BASIC/operators/etcd:v1"
check "basic: no secret in the failure" no_secret

auths "$BASIC" alice:wonderland > "$WORK/auth.json"
DOCKER_CONFIG=$WORK/dc REGISTRY_AUTH_FILE=$WORK/auth.json expect_ok "order: REGISTRY_AUTH_FILE before DOCKER_CONFIG" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"

rm -f "$WORK/dc/config.json"
mkdir -p "$XDG_RUNTIME_DIR/containers"
auths "$BASIC" alice:wonderland > "$XDG_RUNTIME_DIR/containers/auth.json"
DOCKER_CONFIG=$WORK/dc expect_ok "order: XDG_RUNTIME_DIR auth.json when the primary file is absent" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
mkdir -p "$HOME/.docker"
printf '{"auths":{"other.example":{"auth":"%s"}}}\n' "$(b64 x:y)" > "$HOME/.docker/config.json"
expect_ok "order: the containers chain when the primary file has no entry" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
mkdir -p "$XDG_CONFIG_HOME/containers"
auths "$BASIC" alice:wrong > "$XDG_CONFIG_HOME/containers/auth.json"
expect_ok "order: XDG_RUNTIME_DIR before XDG_CONFIG_HOME" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
rm -f "$XDG_RUNTIME_DIR/containers/auth.json"
expect_fail "order: XDG_CONFIG_HOME auth.json is used next" "unauthorized" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
rm -f "$XDG_CONFIG_HOME/containers/auth.json" "$HOME/.docker/config.json"
printf '{"%s":{"auth":"%s"}}\n' "$BASIC" "$(b64 alice:wonderland)" > "$HOME/.dockercfg"
expect_ok "order: legacy ~/.dockercfg last" __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
rm -f "$HOME/.dockercfg"

printf '{"auths":{"%s/operators":{"auth":"%s"},"%s":{"auth":"%s"}}}\n' \
  "$BASIC" "$(b64 alice:wonderland)" "$BASIC" "$(b64 alice:wrong)" > "$WORK/ns.json"
REGISTRY_AUTH_FILE=$WORK/ns.json expect_ok "namespaced key wins over the host key" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
REGISTRY_AUTH_FILE=$WORK/ns.json expect_fail "host key for other namespaces" "unauthorized" \
  __pull --use-http --no-cache --labels "$BASIC/other/etcd:v1"

export PATH="$TOOLS:$PATH" OPMTEST_HELPER_LOG=$WORK/helper.log OPMTEST_HELPER_HOST=$BASIC \
  OPMTEST_HELPER_USER=alice OPMTEST_HELPER_SECRET=wonderland
printf '{"auths":{"%s":{"auth":"%s"}},"credHelpers":{"%s":"opmtest"}}\n' "$BASIC" "$(b64 alice:wrong)" "$BASIC" > "$WORK/helper.json"
REGISTRY_AUTH_FILE=$WORK/helper.json expect_ok "credHelpers before auths" \
  __pull --use-http --no-cache --debug --labels "$BASIC/operators/etcd:v1"
check "helper asked with the bare host:port" grep -qx "get $BASIC" "$WORK/helper.log"
check "helper: no secret at debug level" no_secret
: > "$WORK/helper.log"
printf '{"auths":{},"credsStore":"opmtest"}\n' > "$WORK/store.json"
REGISTRY_AUTH_FILE=$WORK/store.json expect_ok "credsStore as the last resort" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
check "credsStore helper was asked" grep -qx "get $BASIC" "$WORK/helper.log"
OPMTEST_HELPER_HOST=nobody REGISTRY_AUTH_FILE=$WORK/store.json expect_fail "helper without credentials" \
  "unauthorized" __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"

# registries.conf credential-helpers: the stores asked, in order.
auths "$BASIC" alice:wonderland > "$WORK/good.json"
printf 'credential-helpers = ["opmtest"]\n' > "$CONTAINERS_REGISTRIES_CONF"
: > "$WORK/helper.log"
REGISTRY_AUTH_FILE=$WORK/none.json expect_ok "credential-helpers: a helper named in registries.conf" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
check "credential-helpers: the helper was asked" grep -qx "get $BASIC" "$WORK/helper.log"
REGISTRY_AUTH_FILE=$WORK/good.json OPMTEST_HELPER_HOST=nobody expect_fail \
  "credential-helpers: auth files are not read unless listed" "unauthorized" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
printf 'credential-helpers = ["opmtest", "containers-auth.json"]\n' > "$CONTAINERS_REGISTRIES_CONF"
REGISTRY_AUTH_FILE=$WORK/good.json OPMTEST_HELPER_HOST=nobody expect_ok \
  "credential-helpers: the auth files after a helper without credentials" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
printf 'credential-helpers = ["containers-auth.json"]\n' > "$CONTAINERS_REGISTRIES_CONF"
: > "$WORK/helper.log"
REGISTRY_AUTH_FILE=$WORK/none.json expect_fail "credential-helpers: the auth files only" \
  "unauthorized" __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
check "credential-helpers: no helper asked" test ! -s "$WORK/helper.log"
printf 'credential-helpers = ["nosuchhelper"]\n' > "$CONTAINERS_REGISTRIES_CONF"
expect_fail "credential-helpers: a missing helper is named" \
  "credential helper docker-credential-nosuchhelper: executable file not found in \$PATH" \
  __pull --use-http --no-cache --labels "$BASIC/operators/etcd:v1"
: > "$CONTAINERS_REGISTRIES_CONF"

# --- Bearer --------------------------------------------------------------------------------
reset_stats "$TOKSRV"
expect_ok "bearer: anonymous pull" __pull --use-http --no-cache --debug --labels "$TOKEN/ops/etcd:v1"
check "bearer: labels" out_has '"auth":"token"'
check "bearer: one anonymous token request" test "$(token_stats "$TOKSRV" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(len(s), s[0]["account"], s[0]["scopes"])')" = "1 None ['repository:ops/etcd:pull']"
check "bearer: token requests carry the opm User-Agent" sh -c "python3 '$TOOLS/httpreq.py' GET 'http://$TOKSRV/_stats' 2>/dev/null | grep -q '\"user_agent\": \"opm/'"
check "bearer: no token in the debug output" no_secret

reset_stats "$TOKSRV"
expect_ok "bearer: one token for many pulls of a repository" __pull --use-http --no-cache \
  "$TOKEN/ops/etcd:v1" "$TOKEN/ops/etcd:v2" "$TOKEN/ops/etcd:v3"
check "bearer: exactly one token request" test "$(token_stats "$TOKSRV" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1

auths "$TOKEN" alice:wonderland > "$WORK/tok.json"
reset_stats "$TOKSRV"
REGISTRY_AUTH_FILE=$WORK/tok.json expect_ok "bearer: with credentials" __pull --use-http --no-cache --debug --labels "$TOKEN/ops/etcd:v2"
check "bearer: token fetched as alice with GET" test "$(token_stats "$TOKSRV" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s[0]["method"], s[0]["account"])')" = "GET alice"
check "bearer: no secret with credentials" no_secret
REGISTRY_AUTH_FILE=$WORK/tok.json OPM_DEBUG_REGISTRY=1 run_opm render --use-http "$TOKEN/ops/etcd:v2"
check "OPM_DEBUG_REGISTRY=1: render logs its registry requests" err_has "level=debug msg=\"GET http://$TOKEN/v2/"
check "OPM_DEBUG_REGISTRY=1: no secret in render's debug output" no_secret
REGISTRY_AUTH_FILE=$WORK/tok.json run_opm render --use-http "$TOKEN/ops/etcd:v2"
check "without it render logs no registry requests" bash -c "! grep -q level=debug '$WORK/err'"
auths "$TOKEN" alice:wrong > "$WORK/tokbad.json"
REGISTRY_AUTH_FILE=$WORK/tokbad.json expect_fail "bearer: wrong password" "unauthorized" \
  __pull --use-http --no-cache --debug --labels "$TOKEN/ops/etcd:v2"
check "bearer: no secret after a rejected password" no_secret

printf '{"auths":{"%s":{"identitytoken":"refresh-alice"}}}\n' "$TOKEN" > "$WORK/idtok.json"
reset_stats "$TOKSRV"
REGISTRY_AUTH_FILE=$WORK/idtok.json expect_ok "bearer: identity token" __pull --use-http --no-cache --debug --labels "$TOKEN/ops/etcd:v3"
check "bearer: identity token sent as a refresh_token POST" test "$(token_stats "$TOKSRV" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s[0]["method"], s[0]["account"])')" = "POST alice"
check "bearer: no identity token in the output" no_secret

reset_stats "$TOKSRV"
python3 "$TOOLS/httpreq.py" GET "http://$TOKSRV/_config?expired_next=1" > /dev/null 2>&1
expect_ok "bearer: an expired token is replaced once" __pull --use-http --no-cache --debug --labels "$TOKEN/ops/etcd:v1"
check "bearer: two token requests" test "$(token_stats "$TOKSRV" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 2
check "bearer: the refresh is logged" err_has "invalid_token"

# --- HTTPS realm --------------------------------------------------------------------------
SSL_CERT_FILE=$WORK/pki/ca.crt expect_fail "https realm: users only" "unauthorized" \
  __pull --no-cache --labels "$TOKEN_TLS/ops/etcd:v1"
auths "$TOKEN_TLS" alice:wonderland > "$WORK/toktls.json"
REGISTRY_AUTH_FILE=$WORK/toktls.json SSL_CERT_FILE=$WORK/pki/ca.crt expect_ok "https realm with credentials" \
  __pull --no-cache --debug --labels "$TOKEN_TLS/ops/etcd:v1"
check "https realm: labels" out_has '{"auth":"tokentls"}'
check "https realm: no secret" no_secret

check "no temporary files left" tmp_empty
finish
