#!/usr/bin/env bash
# Sets pdex up and runs the demo: Turing spots on the best backend present (CUDA if a GPU is found,
# else OpenMP), written as PNG under out/turing_spots_demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build pdex  # the program alone, not the test suite
build/src/pdex/app/pdex run examples/turing_spots_demo.toml --backend auto
