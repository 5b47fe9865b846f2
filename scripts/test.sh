#!/usr/bin/env bash
# Sets pdex up and runs the whole test suite. GPU tests skip, saying so, when no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
# The explorer's browser test drives Debian's chromium headless through Selenium; the Python tests use pytest;
# h5py reads the HDF5 field files back (tests/io/check_field_files.py); the movie tests run ffmpeg.
PDEX_EXTRA_PACKAGES="chromium chromium-driver python3-selenium python3-pytest python3-scipy python3-h5py ffmpeg" scripts/setup.sh build
# Tests run side by side; spinning OpenMP threads would starve each other.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
(cd build && ctest --output-on-failure -j"$(nproc)")
# The CPU backends again, built with AddressSanitizer and UndefinedBehaviorSanitizer: a subset of the tests.
scripts/sanitize.sh
