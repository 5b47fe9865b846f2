#!/usr/bin/env bash
# Builds the CPU backends with AddressSanitizer and UndefinedBehaviorSanitizer and runs a subset of the
# tests on them; any sanitizer report fails it (scripts/test.sh runs it after the suite; docs/testing.md).
#   scripts/sanitize.sh [BUILD_DIR]      (default: build-sanitize)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-sanitize}

# Clang and its sanitizer runtimes: unoptimized and sanitized, clang compiles pdex in 40% of GCC's time.
missing=()
for p in clang libclang-rt-dev; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "sanitize: installing ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# -O0: the build is most of this step's time, and clang builds it unoptimized far sooner than optimized.
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DPDEX_CUDA=OFF -DPDEX_SANITIZE=address,undefined \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -g1" >/dev/null
cmake --build "$build" -j"$(nproc)" --target test_io test_matrices test_linalg test_fuzz

# A report aborts the test (test_fuzz then names the case it was running).
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
run() {
  echo "sanitize: $*"
  "$build/$1" --gtest_brief=1 "${@:2}"
}
# .npy, PNG and the other formats' readers and writers.
run tests/io/test_io
# Matrix Market files, stored matrices in every format, the Krylov solvers on them, serial and OpenMP.
run tests/linalg/test_matrices
# The grid solvers and multigrid, serial and OpenMP, but for the runs that take nine tenths of the time
# unoptimized and add no code: seed 004's 12,000 sweeps, multigrid's rate per size and its W-cycle, and
# the 3D multigrid's convergence order and cycles per size (64^3 grids).
run tests/linalg/test_linalg --gtest_filter=-Seed004.*:*.VCycleCutsTheResidualAtTheSameRateAtEverySize/*:*.WCycleNeedsNoMoreCyclesThanVCycle/*:*.MultigridPoissonIsSecondOrderForEveryBoundaryKind/*:*.MultigridCyclesDoNotGrowWithTheSize/*
# The three readers fuzzed, 1,000 mutated inputs each.
PDEX_FUZZ_CASES=1000 run tests/fuzz/test_fuzz
