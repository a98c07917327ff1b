#!/usr/bin/env bash
# The Python module as a user installs it (docs/python.md): `pip wheel --no-build-isolation .`
# (CMake through setup.py, no network), the wheel installed into a scratch folder, and
# test_tracediff.py run against that copy rather than the build tree's.
# Usage: tests/python/wheel_test.sh PATH/TO/tracediff. Prints "python-wheel: 1 passed, 0 failed",
# or "python-wheel: 1 skipped (REASON)" without pybind11, pandas or pip.
set -uo pipefail
cd "$(dirname "$0")/../.."
cli=$(realpath "${1:-build/tracediff}")
py=""
for c in python3 /usr/bin/python3; do
  if command -v "$c" >/dev/null && "$c" -c "import setuptools, pandas, pip" 2>/dev/null; then py=$c; break; fi
done
skip() { echo "python-wheel: 1 skipped ($1)"; exit 0; }
[ -n "$py" ] || skip "no python3 with pandas, pip and setuptools"
[ -f /usr/lib/cmake/pybind11/pybind11Config.cmake ] || "$py" -c "import pybind11" 2>/dev/null || skip "no pybind11"
tmp=$(mktemp -d /tmp/tracediff-test-wheel.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export TRACEDIFF_CMAKE_ARGS="${TRACEDIFF_CMAKE_ARGS:-} -DPython3_EXECUTABLE=$(command -v "$py")"
if "$py" -m pip wheel --no-build-isolation --no-deps . -w "$tmp/wheel" >"$tmp/log" 2>&1 &&
   "$py" -m pip install --no-deps --no-index --target "$tmp/site" "$tmp"/wheel/tracediff-*.whl >>"$tmp/log" 2>&1 &&
   (cd "$tmp" && PYTHONPATH="$tmp/site" MPLBACKEND=Agg "$py" "$OLDPWD/tests/python/test_tracediff.py" "$cli"); then
  echo "python-wheel: 1 passed, 0 failed"
else
  tail -30 "$tmp/log"
  echo "python-wheel: 0 passed, 1 failed"
  exit 1
fi
