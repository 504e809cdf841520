# Test harness for the registry client: starts real registries (Debian's docker-registry)
# and helper services on free loopback ports, and removes everything on exit.
# Sourced by tests/registry/*_test.sh; needs $OPM (the binary).
set -euo pipefail

HARNESS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOOLS=$HARNESS_DIR/tools
IMAGETOOL=(python3 "$TOOLS/imagetool.py")

for tool in docker-registry python3 openssl; do
  if ! command -v "$tool" > /dev/null 2>&1; then
    echo "skip: $tool is not installed"
    exit 77
  fi
done
: "${OPM:?OPM must name the opm binary}"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/opm-registry-test-XXXXXX")
: > "$WORK/pids"
source "$HARNESS_DIR/../lib/assert.bash"
source "$HARNESS_DIR/../lib/ports.bash"
source "$HARNESS_DIR/../lib/processes.bash"

harness_cleanup() {
  local rc=$?
  while read -r pid _; do
    kill "$pid" 2> /dev/null || true
  done < "$WORK/pids"
  while read -r pid _; do
    wait "$pid" 2> /dev/null || true
  done < "$WORK/pids"
  if [ "$rc" -ne 0 ] || [ "$FAILED" -ne 0 ]; then
    echo "--- service logs (tail) ---"
    for f in "$WORK"/*.log; do
      [ -f "$f" ] && { echo "== $f"; tail -n 20 "$f"; }
    done
  fi
  if [ -z "${KEEP_WORK:-}" ]; then
    rm -rf "$WORK"
  else
    echo "kept $WORK"
  fi
  exit "$rc"
}
trap harness_cleanup EXIT
trap 'exit 130' INT TERM

# A private environment: nothing from the developer's home, proxies or containers config.
export HOME=$WORK/home
export XDG_CONFIG_HOME=$WORK/home/.config
export XDG_RUNTIME_DIR=$WORK/run
export XDG_CACHE_HOME=$WORK/cache
export TMPDIR=$WORK/tmp
export CONTAINERS_REGISTRIES_CONF=$WORK/registries.conf
export NO_PROXY=127.0.0.1,localhost,::1 no_proxy=127.0.0.1,localhost,::1
unset DOCKER_CONFIG REGISTRY_AUTH_FILE OLM_CACHE_DIR SSL_CERT_FILE SSL_CERT_DIR \
  HTTPS_PROXY https_proxy HTTP_PROXY http_proxy
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR" "$TMPDIR"
: > "$CONTAINERS_REGISTRIES_CONF"

# start NAME CMD...: run a service in the background, logging to $WORK/NAME.log.
start() {
  local name=$1
  shift
  "$@" > "$WORK/$name.log" 2>&1 &
  echo "$! $name" >> "$WORK/pids"
}

# make_pki: test CA, a server certificate for 127.0.0.1/::1/localhost, a client
# certificate, and a self-signed token signing certificate, all under $WORK/pki.
make_pki() {
  local d=$WORK/pki
  [ -f "$d/ca.crt" ] && return 0
  mkdir -p "$d"
  (
    cd "$d"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 \
      -subj "/CN=opm registry test CA" -addext "basicConstraints=critical,CA:TRUE" \
      -addext "keyUsage=critical,keyCertSign,cRLSign" 2> /dev/null
    openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr \
      -subj "/CN=localhost" 2> /dev/null
    printf '%s\n' "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1" \
      "extendedKeyUsage=serverAuth" > server.ext
    openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -out server.crt -days 2 -extfile server.ext 2> /dev/null
    openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr \
      -subj "/CN=opm test client" 2> /dev/null
    printf '%s\n' "extendedKeyUsage=clientAuth" > client.ext
    openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -out client.crt -days 2 -extfile client.ext 2> /dev/null
    openssl req -x509 -newkey rsa:2048 -nodes -keyout token.key -out token.crt -days 2 \
      -subj "/CN=opm test token signer" 2> /dev/null
  )
}

# make_htpasswd USER:PASSWORD...: bcrypt entries (cost 4) in $WORK/htpasswd.
make_htpasswd() {
  python3 -W ignore - "$@" > "$WORK/htpasswd" << 'PY' || return 1
import sys
try:
    import crypt
except ImportError:
    sys.exit(3)
for pair in sys.argv[1:]:
    user, password = pair.split(":", 1)
    print(user + ":" + crypt.crypt(password, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))
PY
  grep -q '^[^:]*:\$2' "$WORK/htpasswd"
}

# start_registry NAME [YAML...]: a docker-registry on a free port; sets REG to 127.0.0.1:PORT.
# Extra YAML lines are appended to the config (http.tls, auth, proxy ...).
start_registry() {
  local name=$1 port
  shift
  port=$(free_port)
  mkdir -p "$WORK/$name/data"
  {
    printf '%s\n' "version: 0.1" "log:" "  level: warn" "storage:" "  filesystem:" \
      "    rootdirectory: $WORK/$name/data"
    if [ "${REGISTRY_NO_DELETE:-}" != 1 ]; then
      printf '%s\n' "  delete:" "    enabled: true"
    fi
    printf '%s\n' "http:" "  addr: 127.0.0.1:$port" "  secret: opm-test-secret"
    local line
    for line in "$@"; do
      printf '%s\n' "$line"
    done
  } > "$WORK/$name/config.yml"
  start "$name" docker-registry serve "$WORK/$name/config.yml"
  wait_port "$port"
  REG=127.0.0.1:$port
}

tls_yaml() {
  printf '%s\n' "  tls:" "    certificate: $WORK/pki/server.crt" "    key: $WORK/pki/server.key"
}

# start_token_server NAME [ARGS...]: sets TOKEN_SERVER to 127.0.0.1:PORT.
start_token_server() {
  local name=$1 port
  shift
  port=$(free_port)
  start "$name" python3 "$TOOLS/tokenserver.py" --port "$port" --key "$WORK/pki/token.key" \
    --cert "$WORK/pki/token.crt" "$@"
  wait_port "$port"
  TOKEN_SERVER=127.0.0.1:$port
}

token_yaml() { # REALM
  printf '%s\n' "auth:" "  token:" "    realm: $1" "    service: opm-test-registry" \
    "    issuer: opm-test-issuer" "    rootcertbundle: $WORK/pki/token.crt"
}

# start_fault_proxy UPSTREAM_HOSTPORT: sets FAULT to 127.0.0.1:PORT.
start_fault_proxy() {
  local port
  port=$(free_port)
  start "fault-$port" python3 "$TOOLS/faultproxy.py" --port "$port" --upstream "http://$1"
  wait_port "$port"
  FAULT=127.0.0.1:$port
}

fault_rules() { # JSON
  python3 "$TOOLS/httpreq.py" PUT "http://$FAULT/__fault/rules" "$1" > /dev/null 2>&1
  python3 "$TOOLS/httpreq.py" DELETE "http://$FAULT/__fault/log" > /dev/null 2>&1
}
fault_log() { python3 "$TOOLS/httpreq.py" GET "http://$FAULT/__fault/log" 2> /dev/null; }

# A small bundle-like tree to push.
make_bundle_dir() { # DIR NAME
  mkdir -p "$1/manifests" "$1/metadata"
  printf 'apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: %s\n' \
    "$2" > "$1/manifests/csv.yaml"
  printf 'annotations:\n  operators.operatorframework.io.bundle.package.v1: %s\n' "$2" \
    > "$1/metadata/annotations.yaml"
}

push_image() { # BASE_URL REPO TAG [imagetool options]; prints "digest size type"
  "${IMAGETOOL[@]}" push "$@"
}

annotation_labels() { # BUNDLE_DIR: --label k=v for each metadata annotation
  sed -n 's/^  \([^:]*\): \(.*\)$/--label \1=\2/p' "$1/metadata/annotations.yaml"
}

push_bundle_image() { # DIR REPO TAG: a bundle directory as an image of the plain registry $REG
  # shellcheck disable=SC2046
  push_image "http://$REG" "$2" "$3" --files "$1" $(annotation_labels "$1") > /dev/null
}

# push_sqlite_bundles: the kiwi and plum bundles of tests/data/sqlite as
# $REG/test/<name>-bundle:v<version>; SQLITE_BUNDLES lists the four references, comma-separated.
push_sqlite_bundles() {
  local b refs=()
  for b in kiwi-0.1.0 kiwi-0.2.0 kiwi-0.3.0 plum-1.0.0; do
    push_bundle_image "$OPM_TESTS/data/sqlite/bundles/$b" "test/${b%-*}-bundle" "v${b##*-}"
    refs+=("$REG/test/${b%-*}-bundle:v${b##*-}")
  done
  SQLITE_BUNDLES=$(IFS=,; echo "${refs[*]}")
}

# --- assertions: tests/lib/assert.bash, plus ---------------------------------------------
tmp_empty() { [ -z "$(ls -A "$TMPDIR")" ]; }
