# Running an image's root directory as a container runtime would, without one: for
# tests/serve/base_image_test.sh and bench/base_image.sh. Needs root, unshare and chroot.

# unpack_image LAYOUT ROOT: the layers of the only image of the OCI layout, lowest first,
# extracted into ROOT with their owners and modes.
unpack_image() {
  local layout=$1 root=$2 layer
  mkdir -p "$root"
  while read -r layer; do
    tar -xzf "$layer" -C "$root" --same-owner --numeric-owner || return 1
  done < <(/usr/bin/python3 "$OPM_TESTS/serve/lib/image.py" "$layout" layers)
  mkdir -p "$root/proc" "$root/dev"
}

# in_root ROOT PATH ARGS...: ARGS run inside ROOT as user 1001 with PATH its only
# environment, in new mount and pid namespaces with /proc and a minimal /dev mounted (the
# process is pid 1 there and is killed when unshare is).
in_root() {
  unshare --mount --pid --fork --kill-child -- /bin/sh -c '
    root=$1 path=$2; shift 2
    mount -t proc proc "$root/proc" && mount -t tmpfs -o mode=0755 tmpfs "$root/dev" || exit 125
    for dev in null:3 zero:5 random:8 urandom:9; do
      mknod -m 0666 "$root/dev/${dev%:*}" c 1 "${dev#*:}" || exit 125
    done
    exec env -i PATH="$path" chroot --userspec=1001:1001 "$root" "$@"' in_root "$@"
}
