#!/usr/bin/env bash
# Installs the Debian 12 packages opm needs, by purpose; safe to run again.
#   scripts/install-deps.sh              build: compile opm (and its runtime libraries)
#   scripts/install-deps.sh runtime      only the libraries an installed opm loads
#   scripts/install-deps.sh test         build, plus what the test suite starts and checks
#   scripts/install-deps.sh dev          test, plus clang-format, the fuzzing toolchain and gdb
#                                        (stacks of a process a test finds hung)
#   scripts/install-deps.sh package      build, plus cpack's dpkg-shlibdeps and file, and debootstrap
#   scripts/install-deps.sh cross-arm64  build, plus the arm64 cross compiler, libraries and qemu
# Several sets can be named at once ("build test").
set -euo pipefail

runtime=(
  libarchive13 libcurl4 libfmt9 libsqlite3-0 libssl3 libtomlplusplus3 libyaml-0-2 zlib1g
  libmimalloc2.0 libgrpc++1.51 libgrpc29 libprotobuf32 libabsl20220623 ca-certificates
)
build=(
  build-essential cmake ninja-build pkg-config git xz-utils
  libcli11-dev nlohmann-json3-dev libfmt-dev doctest-dev libyaml-dev
  libcurl4-openssl-dev libssl-dev libarchive-dev libsqlite3-dev
  libtomlplusplus-dev zlib1g-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc
)
test=(python3 python3-grpcio docker-registry openssl util-linux procps)
dev=(clang-format clang-16 libclang-rt-16-dev llvm-16 gdb)
package=(dpkg-dev binutils file debootstrap)
# Cross-building for 64-bit ARM (cmake/toolchains/aarch64-linux-gnu.cmake): the cross compiler,
# the arm64 libraries beside this machine's, and qemu to run what was built.
cross_arm64=(
  crossbuild-essential-arm64 qemu-user-static
  libfmt-dev:arm64 libyaml-dev:arm64 libcurl4-openssl-dev:arm64 libssl-dev:arm64
  libarchive-dev:arm64 libsqlite3-dev:arm64 libtomlplusplus-dev:arm64 zlib1g-dev:arm64
  libgrpc++-dev:arm64 libprotobuf-dev:arm64
)

sets=("$@")
if [ "${#sets[@]}" -eq 0 ]; then
  sets=(build)
fi
packages=()
for set in "${sets[@]}"; do
  case "$set" in
    runtime) packages+=("${runtime[@]}") ;;
    build) packages+=("${runtime[@]}" "${build[@]}") ;;
    test) packages+=("${runtime[@]}" "${build[@]}" "${test[@]}") ;;
    dev) packages+=("${runtime[@]}" "${build[@]}" "${test[@]}" "${dev[@]}") ;;
    package) packages+=("${runtime[@]}" "${build[@]}" "${package[@]}") ;;
    cross-arm64) packages+=("${runtime[@]}" "${build[@]}" "${cross_arm64[@]}") ;;
    *)
      echo "install-deps: unknown set $set (runtime, build, test, dev, package, cross-arm64)" >&2
      exit 1
      ;;
  esac
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi

missing=()
for p in $(printf '%s\n' "${packages[@]}" | sort -u); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  if printf '%s\n' "${missing[@]}" | grep -q ':arm64$' &&
    ! dpkg --print-foreign-architectures | grep -qx arm64; then
    "${sudo_cmd[@]}" dpkg --add-architecture arm64
  fi
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
