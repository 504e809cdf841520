#!/usr/bin/env bash
# Installs the Debian packages opm needs to build and test. Shared by the
# README, CI and users; safe to run again.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git xz-utils python3
  libcli11-dev nlohmann-json3-dev libfmt-dev doctest-dev libyaml-dev
  libcurl4-openssl-dev libssl-dev libarchive-dev libsqlite3-dev
  libtomlplusplus-dev zlib1g-dev
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc python3-grpcio
  docker-registry openssl clang-format
  clang-16 libclang-rt-16-dev llvm-16
)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
