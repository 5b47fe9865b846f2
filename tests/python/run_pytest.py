"""Runs the Python package's tests with pytest; exits 77 (CTest: skipped) where pytest or NumPy is missing."""
import importlib.util
import sys

for module, package in (("pytest", "python3-pytest"), ("numpy", "python3-numpy")):
    if importlib.util.find_spec(module) is None:
        print(f"SKIP: {package} is not installed (scripts/test.sh installs it)")
        sys.exit(77)

import pytest  # noqa: E402

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", sys.argv[1]]))
