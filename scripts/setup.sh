#!/usr/bin/env bash
# Installs what pdex needs on Debian 12 (only what is missing) and configures + builds it.
#   scripts/setup.sh [BUILD_DIR [TARGET...]]      (default: build, every target)
# CUDA is used when nvcc is on PATH or in /usr/local/cuda/bin; without it the CPU backends are built.
# Where no GPU is visible (nvidia-smi), the CUDA kernels are compiled as a check only (see below).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
targets=("${@:2}")
# PDEX_EXTRA_PACKAGES: more to install (scripts/test.sh: the browser the explorer's test drives).
pkgs=(build-essential cmake ninja-build pkg-config libomp-dev libpng-dev nlohmann-json3-dev libcli11-dev
      libtomlplusplus-dev libgtest-dev python3-numpy python3-dev pybind11-dev libdlpack-dev libboost1.74-dev libhdf5-dev
      libopenmpi-dev openmpi-bin libhdf5-openmpi-dev ${PDEX_EXTRA_PACKAGES:-})
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
werror=OFF; [ "${CI:-}" = "true" ] && werror=ON
# Without a GPU the CUDA code can only be compiled, not run: compile it fast, as a check
# (PDEX_CUDA_FAST_COMPILE in CMakeLists.txt). Set PDEX_CUDA_FAST_COMPILE=OFF to build optimized kernels
# here for a GPU machine elsewhere.
fast=${PDEX_CUDA_FAST_COMPILE:-}
if [ -z "$fast" ]; then
  fast=OFF
  if command -v nvcc >/dev/null && ! nvidia-smi -L >/dev/null 2>&1 && [ ! -e /dev/nvidia0 ]; then
    fast=ON
    echo "setup: no GPU found: the CUDA kernels are compiled unoptimized, as a compile check" \
         "(PDEX_CUDA_FAST_COMPILE=OFF $0 compiles them for speed)"
  fi
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPDEX_WERROR=$werror -DPDEX_CUDA_FAST_COMPILE=$fast >/dev/null
cmake --build "$build" -j"$(nproc)" ${targets[@]:+--target "${targets[@]}"}
