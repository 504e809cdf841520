#!/usr/bin/env bash
# opm alpha bundle extract writes a bundle directory into an existing ConfigMap, as OLM's
# bundle unpack jobs run it: each file as data (or gzip+base64 binaryData with -z), the bundle
# annotations and olm.sourceImage as annotations, within the size limit. No Kubernetes API
# server is packaged for Debian, so lib/kube_api_server.py stands in for one: it serves the
# ConfigMap GET and PUT and checks the token, content type and resourceVersion as
# kube-apiserver would.
source "$OPM_TESTS/cli/lib/common.bash"
unset KUBECONFIG KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT

cat >initial.json <<'JSON'
[{"apiVersion": "v1", "kind": "ConfigMap",
  "metadata": {"name": "bundle-x", "namespace": "olm", "resourceVersion": "7", "uid": "u-1",
               "annotations": {"kept": "no"}},
  "data": {"old": "gone"}}]
JSON

SERVER_PID=
start_server() { # ARGS...: a fresh server on state.json
  stop_server
  cp initial.json state.json && rm -f port
  python3 "$OPM_TESTS/cli/lib/kube_api_server.py" state.json port s3cret "$@" &
  SERVER_PID=$!
  for _ in $(seq 100); do [ -s port ] && break; sleep 0.05; done
  [ -s port ] || fail "server did not start"
  write_kubeconfig s3cret
}
stop_server() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" && wait "$SERVER_PID" 2>/dev/null; SERVER_PID=; }
trap 'stop_server' EXIT
write_kubeconfig() { # TOKEN [SCHEME [CLUSTER YAML...]]
  local scheme=${2:-http} extra=${3:-}
  cat >kubeconfig <<YAML
apiVersion: v1
kind: Config
current-context: test
contexts:
- name: test
  context: {cluster: local, user: robot}
clusters:
- name: local
  cluster: {server: "$scheme://127.0.0.1:$(cat port)"$extra}
users:
- name: robot
  user: {token: $1}
YAML
}
stored() { python3 -c 'import json,sys; print(json.dumps(json.load(open("state.json"))[0]'"$1"', sort_keys=True))'; }

mkdir -p b/manifests b/metadata
printf 'kind: ClusterServiceVersion\n' >b/manifests/csv.yaml
printf 'kind: Service\n' >'b/manifests/my svc.yaml'
cat >b/metadata/annotations.yaml <<'YAML'
annotations:
  operators.operatorframework.io.bundle.mediatype.v1: registry+v1
  operators.operatorframework.io.bundle.manifests.v1: manifests/
  operators.operatorframework.io.bundle.metadata.v1: metadata/
  operators.operatorframework.io.bundle.package.v1: gizmo
  operators.operatorframework.io.bundle.channels.v1: stable
YAML
printf 'properties: []\n' >b/metadata/properties.yaml

start_server
CONTAINER_IMAGE=quay.io/acme/gizmo-bundle:v1 run_opm alpha bundle extract -m "$WORK/b/" -n olm -c bundle-x -k kubeconfig
expect_rc 0
expect_eq "data" '{"csv.yaml": "kind: ClusterServiceVersion\n", "my-svc.yaml": "kind: Service\n", "properties.yaml": "properties: []\n"}' "$(stored '["data"]')"
expect_eq "annotations" '{"olm.sourceImage": "quay.io/acme/gizmo-bundle:v1", "operators.operatorframework.io.bundle.channel.default.v1": "", "operators.operatorframework.io.bundle.channels.v1": "stable", "operators.operatorframework.io.bundle.manifests.v1": "manifests/", "operators.operatorframework.io.bundle.mediatype.v1": "registry+v1", "operators.operatorframework.io.bundle.metadata.v1": "metadata/", "operators.operatorframework.io.bundle.package.v1": "gizmo"}' "$(stored '["metadata"]["annotations"]')"
expect_eq "resourceVersion" '"8"' "$(stored '["metadata"]["resourceVersion"]')"
normalized_err >err.norm
expect_text err.norm "time=\"T\" level=info msg=\"Loading kube client config from path \\\"kubeconfig\\\"\"
time=\"T\" level=info msg=\"Reading file\" file=$WORK/b/manifests/csv.yaml
time=\"T\" level=info msg=\"Reading file\" file=\"$WORK/b/manifests/my svc.yaml\"
time=\"T\" level=info msg=\"translated filename for configmap compatibility\" file.Name=\"my svc.yaml\" validConfigMapKey=my-svc.yaml
time=\"T\" level=info msg=\"Reading file\" file=$WORK/b/metadata/annotations.yaml
time=\"T\" level=info msg=\"Reading file\" file=$WORK/b/metadata/properties.yaml
"

# -z: each file gzip'd and base64'd into binaryData (which JSON carries as base64 again).
start_server
KUBECONFIG="$WORK/kubeconfig" run_opm alpha bundle extract -m "$WORK/b/" -n olm -c bundle-x -z
expect_rc 0
expect_eq "no data with -z" 'null' "$(stored '.get("data")')"
expect_eq "encoding" '"gzip+base64"' "$(stored '["metadata"]["annotations"]["olm.contentEncoding"]')"
python3 - <<'PY' || fail "binaryData does not decode to the files"
import base64, gzip, json
cm = json.load(open("state.json"))[0]
got = {k: gzip.decompress(base64.b64decode(base64.b64decode(v))).decode() for k, v in cm["binaryData"].items()}
assert got == {"csv.yaml": "kind: ClusterServiceVersion\n", "my-svc.yaml": "kind: Service\n",
               "properties.yaml": "properties: []\n"}, got
PY

# Over the limit: nothing is sent.
start_server
run_opm alpha bundle extract -m "$WORK/b/" -n olm -c bundle-x -k kubeconfig -l 30
expect_rc 1
grep -qx 'Error: error loading manifests from directory: bundle files exceeded 30 bytes limit' err ||
  fail "limit: $(cat err)"
cmp -s initial.json state.json || fail "ConfigMap changed over the limit"

# The server's refusals, in its words.
write_kubeconfig wrong
run_opm alpha bundle extract -m "$WORK/b/" -n olm -c bundle-x -k kubeconfig
expect_rc 1
grep -qx 'Error: error loading manifests from directory: Unauthorized' err || fail "token: $(cat err)"
write_kubeconfig s3cret
run_opm alpha bundle extract -m "$WORK/b/" -n olm -c nope -k kubeconfig
expect_rc 1
grep -qx 'Error: error loading manifests from directory: configmaps "nope" not found' err ||
  fail "missing ConfigMap: $(cat err)"
start_server --bump-on-get
run_opm alpha bundle extract -m "$WORK/b/" -n olm -c bundle-x -k kubeconfig
expect_rc 1
grep -qx 'Error: error loading manifests from directory: Operation cannot be fulfilled on configmaps "bundle-x": the object has been modified; please apply your changes to the latest version and try again' err ||
  fail "conflict: $(cat err)"

# Over TLS: the server's certificate chains to the kubeconfig's CA, or verification is off.
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 \
  -subj "/CN=kube test CA" -addext "basicConstraints=critical,CA:TRUE" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=127.0.0.1" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >server.ext
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt \
  -days 2 -extfile server.ext 2>/dev/null || fail "no test certificate"
start_server --tls server.crt server.key
write_kubeconfig s3cret https ", certificate-authority-data: $(base64 -w0 ca.crt)"
run_opm alpha bundle extract -m "$WORK/b/" -n olm -c bundle-x -k kubeconfig
expect_rc 0
expect_eq "written over TLS" '"8"' "$(stored '["metadata"]["resourceVersion"]')"
write_kubeconfig s3cret https
run_opm alpha bundle extract -m "$WORK/b/" -n olm -c bundle-x -k kubeconfig
expect_rc 1
grep -q '^Error: error loading manifests from directory: .*certificate' err || fail "untrusted server: $(cat err)"
write_kubeconfig s3cret https ", insecure-skip-tls-verify: true"
run_opm alpha bundle extract -m "$WORK/b/" -n olm -c bundle-x -k kubeconfig
expect_rc 0

# A missing directory, and no cluster to talk to.
start_server
run_opm alpha bundle extract -m "$WORK/none/" -n olm -c bundle-x -k kubeconfig
expect_rc 1
grep -qx "Error: error loading manifests from directory: open $WORK/none/manifests/: no such file or directory" err ||
  fail "missing directory: $(cat err)"
run_opm alpha bundle extract -m "$WORK/b/" -n olm -c bundle-x
expect_rc 1
normalized_err >err.norm
expect_text err.norm 'time="T" level=info msg="Using in-cluster kube client config"
time="T" level=fatal msg="cluster config failed: Cannot load config for REST client: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined"
'
exit 0
