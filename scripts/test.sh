#!/usr/bin/env bash
# Sets pdex up and runs the whole test suite. GPU tests skip, saying so, when no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cd build && ctest --output-on-failure -j"$(nproc)"
