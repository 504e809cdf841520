#!/usr/bin/env bash
# registries.conf: mirrors (including a pull-through cache), prefix remapping, Docker Hub
# names, mirror-by-digest-only, insecure and blocked registries.
source "$(dirname "$0")/harness.sh"

start_registry plain
PLAIN=$REG
REGISTRY_NO_DELETE=1 start_registry cache "proxy:" "  remoteurl: http://$PLAIN"
CACHE=$REG
DEAD=127.0.0.1:$(free_port)
B=$WORK/bundle
make_bundle_dir "$B" etcd
read -r DIGEST _ < <(push_image "http://$PLAIN" ops/etcd v1 --files "$B" --label from=plain)
push_image "http://$PLAIN" library/busybox 1 --files "$B" --label from=hub > /dev/null
PULL=(__pull --no-cache --max-attempts 1 --retry-delay-ms 10)
conf() { cat > "$CONTAINERS_REGISTRIES_CONF"; }

conf << EOF2
[[registry]]
location = "$DEAD/ops"
insecure = true
[[registry.mirror]]
location = "$PLAIN/ops"
insecure = true
EOF2
expect_ok "a mirror serves a tag when the primary is down" "${PULL[@]}" --labels "$DEAD/ops/etcd:v1"
check "mirror labels" out_has '{"from":"plain"}'

conf << EOF2
[[registry]]
prefix = "quay.example/acme"
location = "$PLAIN/ops"
insecure = true
EOF2
expect_ok "prefix remapped to another location" "${PULL[@]}" --labels "quay.example/acme/etcd:v1"
rm -rf "$WORK/u"
expect_ok "unpack through a remapped prefix" "${PULL[@]}" --unpack "$WORK/u" "quay.example/acme/etcd:v1"
check "remapped unpack" cmp -s "$B/manifests/csv.yaml" "$WORK/u/manifests/csv.yaml"

conf << EOF2
[[registry]]
prefix = "docker.io"
location = "$PLAIN"
insecure = true
EOF2
expect_ok "Docker Hub names remapped in canonical form" "${PULL[@]}" --labels "docker.io/library/busybox:1"
check "hub remap labels" out_has '{"from":"hub"}'

conf << EOF2
[[registry]]
location = "$DEAD/ops"
insecure = true
mirror-by-digest-only = true
[[registry.mirror]]
location = "$PLAIN/ops"
insecure = true
EOF2
expect_fail "mirror-by-digest-only: a tag goes to the primary" "$DEAD" "${PULL[@]}" "$DEAD/ops/etcd:v1"
expect_ok "mirror-by-digest-only: a digest uses the mirror" "${PULL[@]}" --labels "$DEAD/ops/etcd@$DIGEST"

conf << EOF2
[[registry]]
location = "$DEAD/ops"
insecure = true
[[registry.mirror]]
location = "$CACHE/ops"
insecure = true
EOF2
expect_ok "a pull-through cache as a mirror" "${PULL[@]}" --labels "$DEAD/ops/etcd:v1"

conf << EOF2
[[registry]]
location = "$DEAD/ops"
insecure = true
[[registry.mirror]]
location = "$DEAD/mirror"
insecure = true
EOF2
expect_fail "every source failing is reported, primary last" "pulling $DEAD/ops/etcd:v1: every source failed: $DEAD/mirror/etcd:v1: " \
  "${PULL[@]}" "$DEAD/ops/etcd:v1"
check "primary error last" err_has "; $DEAD/ops/etcd:v1: "

conf << EOF2
[[registry]]
location = "$PLAIN"
blocked = true
EOF2
expect_fail "a blocked registry" "registry $PLAIN is blocked in registries.conf" "${PULL[@]}" --use-http "$PLAIN/ops/etcd:v1"

conf << EOF2
[registries.insecure]
registries = ["$PLAIN"]
EOF2
expect_ok "v1 insecure list" "${PULL[@]}" "$PLAIN/ops/etcd:v1"

conf << EOF2
[[registry]
EOF2
expect_fail "a broken registries.conf is reported" "loading registries configuration \"$CONTAINERS_REGISTRIES_CONF\"" \
  "${PULL[@]}" --use-http "$PLAIN/ops/etcd:v1"

: > "$CONTAINERS_REGISTRIES_CONF"
printf '[[registry]]\nprefix = "quay.example/acme"\nlocation = "%s/ops"\ninsecure = true\n' "$PLAIN" > "$WORK/explicit.conf"
expect_ok "--registries-conf names the file" "${PULL[@]}" --registries-conf "$WORK/explicit.conf" "quay.example/acme/etcd:v1"

check "no temporary files left" tmp_empty
finish
