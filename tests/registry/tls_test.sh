#!/usr/bin/env bash
# TLS: the system trust store replaced by SSL_CERT_FILE, certs.d CAs and client
# certificates, --ca-file, --skip-tls-verify, and the hints on failure.
source "$(dirname "$0")/harness.sh"

make_pki
start_registry tls "$(tls_yaml)"
TLS=$REG
start_registry mtls "$(tls_yaml)" "    clientcas:" "      - $WORK/pki/ca.crt"
MTLS=$REG
B=$WORK/bundle
make_bundle_dir "$B" etcd
push_image "https://$TLS" ops/etcd v1 --files "$B" --label via=tls --cacert "$WORK/pki/ca.crt" > /dev/null
mkdir -p "$WORK/pushcert"
# the mTLS registry needs a client certificate for the push as well: go through Python's ssl
python3 - "$MTLS" "$WORK/pki" "$B" "$TOOLS" << 'PY'
import ssl, sys
sys.path.insert(0, sys.argv[4])
import imagetool
reg, pki, bundle = sys.argv[1], sys.argv[2], sys.argv[3]
ctx = ssl.create_default_context(cafile=pki + "/ca.crt")
ctx.load_cert_chain(pki + "/client.crt", pki + "/client.key")
r = imagetool.Registry("https://" + reg)
r.ctx = ctx
img = imagetool.Image()
img.add_layer(imagetool.tar_of_dir(bundle), "gzip")
img.labels["via"] = "mtls"
m, c = img.manifest()
for _, blob, _ in img.layers:
    r.push_blob("ops/etcd", blob)
r.push_blob("ops/etcd", c)
r.put_manifest("ops/etcd", "v1", m, imagetool.OCI_MANIFEST)
PY

expect_fail "unknown authority is refused with a hint" "(add the CA to certs.d/$TLS/ca.crt, or use --skip-tls-verify)" \
  __pull --labels "$TLS/ops/etcd:v1"
check "the failure names the host" err_has "pinging container registry $TLS"

SSL_CERT_FILE=$WORK/pki/ca.crt expect_ok "SSL_CERT_FILE replaces the trust store" __pull --labels "$TLS/ops/etcd:v1"
check "labels over TLS" out_has '{"via":"tls"}'

mkdir -p "$WORK/certdir"
cp "$WORK/pki/ca.crt" "$WORK/certdir/"
openssl rehash "$WORK/certdir" 2> /dev/null || (cd "$WORK/certdir" && ln -s ca.crt "$(openssl x509 -hash -noout -in ca.crt).0")
SSL_CERT_DIR=$WORK/certdir expect_ok "SSL_CERT_DIR replaces the trust directory" __pull --labels "$TLS/ops/etcd:v1"

expect_ok "--skip-tls-verify" __pull --skip-tls-verify --labels "$TLS/ops/etcd:v1"
expect_ok "--use-http also accepts an unverified TLS registry" __pull --use-http --labels "$TLS/ops/etcd:v1"
expect_ok "--ca-file adds a root" __pull --ca-file "$WORK/pki/ca.crt" --labels "$TLS/ops/etcd:v1"
printf 'not a certificate\n' > "$WORK/bad.pem"
expect_fail "--ca-file without certificates" "failed to fetch root CA from $WORK/bad.pem" \
  __pull --ca-file "$WORK/bad.pem" "$TLS/ops/etcd:v1"

CERTS_D=$XDG_CONFIG_HOME/containers/certs.d
mkdir -p "$CERTS_D/$TLS"
cp "$WORK/pki/ca.crt" "$CERTS_D/$TLS/ca.crt"
expect_ok "certs.d CA for the host" __pull --labels "$TLS/ops/etcd:v1"

expect_fail "mTLS without a client certificate" "$MTLS" __pull --max-attempts 1 --labels "$MTLS/ops/etcd:v1"
mkdir -p "$CERTS_D/$MTLS"
cp "$WORK/pki/ca.crt" "$CERTS_D/$MTLS/ca.crt"
cp "$WORK/pki/client.crt" "$CERTS_D/$MTLS/client.cert"
expect_fail "a client certificate without its key" "missing key client.key for client certificate client.cert" \
  __pull --labels "$MTLS/ops/etcd:v1"
cp "$WORK/pki/client.key" "$CERTS_D/$MTLS/client.key"
expect_ok "mTLS with certs.d client certificate" __pull --labels "$MTLS/ops/etcd:v1"
check "labels over mTLS" out_has '{"via":"mtls"}'
rm -rf "$WORK/u"
expect_ok "unpack over mTLS" __pull --unpack "$WORK/u" "$MTLS/ops/etcd:v1"
check "unpacked over mTLS" cmp -s "$B/manifests/csv.yaml" "$WORK/u/manifests/csv.yaml"
expect_ok "client certificate still presented with --skip-tls-verify" __pull --skip-tls-verify --no-cache --labels "$MTLS/ops/etcd:v1"

check "no temporary files left" tmp_empty
finish
