#!/usr/bin/env bash
# The Python module as a user installs it (docs/python.md), and the wheel on a machine
# without the build's libraries. Three checks:
#   build    `pip wheel --no-build-isolation --no-deps .` (CMake through setup.py, no network)
#   needed   the extension's NEEDED entries (readelf -d) are glibc's (libc, libm, libpthread,
#            libdl, librt, ld-linux), libstdc++ and libgcc_s only: no Boost, zlib, ISA-L
#   venv     the wheel installed into a fresh venv (Debian's pandas seen through
#            --system-site-packages) and tests/python (test_tracediff.py, test_hta_api.py, HTA's
#            own tests and notebook: hta/run_hta.py) run by the venv's python in a
#            mount namespace where Boost's and ISA-L's libraries are empty files and
#            /usr/include/boost an empty folder; without one (not root, no unshare), run
#            without hiding them, and the line says "no mount namespace: readelf check only".
#            libdeflate stays: matplotlib's Pillow loads it through libtiff (the test draws
#            charts); the NEEDED check and the import's mappings (/proc/self/maps) cover it.
# Usage: tests/python/wheel_test.sh PATH/TO/tracediff. Prints "python-wheel: 3 passed, 0 failed",
# or "python-wheel: 1 skipped (REASON)" without pybind11, pandas or pip.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
cli=$(realpath "${1:-build/tracediff}")
py=""
for c in python3 /usr/bin/python3; do
  if command -v "$c" >/dev/null && "$c" -c "import setuptools, pandas, pip, venv" 2>/dev/null; then py=$(command -v "$c"); break; fi
done
skip() { echo "python-wheel: 1 skipped ($1)"; exit 0; }
[ -n "$py" ] || skip "no python3 with pandas, pip, setuptools and venv"
[ -f /usr/lib/cmake/pybind11/pybind11Config.cmake ] || "$py" -c "import pybind11" 2>/dev/null || skip "no pybind11"
tmp=$(mktemp -d /tmp/tracediff-test-wheel.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export TRACEDIFF_CMAKE_ARGS="${TRACEDIFF_CMAKE_ARGS:-} -DPython3_EXECUTABLE=$py"
passed=0 failed=0 note=""
pass() { passed=$((passed + 1)); }
fail() { echo "python-wheel: FAILED: $*"; failed=$((failed + 1)); }
summary() { echo "python-wheel: $passed passed, $failed failed$note"; exit $((failed != 0)); }

# --- build
start=$SECONDS
if ! "$py" -m pip wheel --no-build-isolation --no-deps . -w "$tmp/wheel" >"$tmp/log" 2>&1; then
  tail -30 "$tmp/log"
  fail "pip wheel"
  failed=$((failed + 2))  # the other two checks need the wheel
  summary
fi
wheel=$(ls "$tmp"/wheel/tracediff-*.whl)
echo "python-wheel: $(basename "$wheel"): $(stat -c %s "$wheel") bytes, built in $((SECONDS - start)) s"
pass

# --- needed
mkdir "$tmp/unpacked"
"$py" -m zipfile -e "$wheel" "$tmp/unpacked"
so=$(ls "$tmp"/unpacked/tracediff/_tracediff*.so)
needed=$(readelf -d "$so" | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p')
echo "python-wheel: NEEDED: $(echo $needed)"
bad=$(echo "$needed" | grep -vE '^(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s)\.so\.[0-9.]+$|^ld-linux(-x86-64|-aarch64)?\.so\.[0-9]+$')
if [ -z "$needed" ]; then
  fail "readelf -d $so: no NEEDED entries read"
elif [ -n "$bad" ]; then
  fail "the extension needs $(echo $bad) (only glibc, libstdc++ and libgcc_s are allowed)"
else
  pass
fi

# --- venv
"$py" -m venv --system-site-packages --without-pip "$tmp/venv" >>"$tmp/log" 2>&1 &&
  "$tmp/venv/bin/python" -m pip install --no-deps --no-index "$wheel" >>"$tmp/log" 2>&1 ||
  { tail -20 "$tmp/log"; fail "venv and pip install"; summary; }
# The CLI the test compares against is the build's, not under test: it keeps its own ISA-L
# (copied before the namespace hides it), through a wrapper.
mkdir "$tmp/cli-libs"
ldd "$cli" 2>/dev/null | awk '$3 ~ /lib(isal|boost_)/ {print $3}' | xargs -r cp -L -t "$tmp/cli-libs"
printf '#!/bin/sh\nLD_LIBRARY_PATH="%s" exec "%s" "$@"\n' "$tmp/cli-libs" "$cli" >"$tmp/cli"
chmod +x "$tmp/cli"
# Run inside the namespace (or not): hides, checks that it did, imports, runs the test.
cat >"$tmp/run.sh" <<'EOF'
set -u
tmp=$1 repo=$2 hide=$3
if [ "$hide" = 1 ]; then
  : >"$tmp/empty" && mkdir -p "$tmp/empty-dir" || exit 1
  for f in /usr/lib/x86_64-linux-gnu/libboost_* /usr/lib/x86_64-linux-gnu/libisal* \
           /usr/lib/aarch64-linux-gnu/libboost_* /usr/lib/aarch64-linux-gnu/libisal*; do
    [ -f "$f" ] && [ ! -L "$f" ] && { mount --bind "$tmp/empty" "$f" || exit 1; }
  done
  [ -d /usr/include/boost ] && { mount --bind "$tmp/empty-dir" /usr/include/boost || exit 1; }
  if "$tmp/venv/bin/python" -c "import ctypes; ctypes.CDLL('libboost_json.so.1.81.0')" 2>/dev/null ||
     [ -e /usr/include/boost/version.hpp ]; then
    echo "python-wheel: Boost is still there in the mount namespace"; exit 1
  fi
fi
cd "$tmp" || exit 1
"$tmp/venv/bin/python" - "$tmp/venv" <<'PY' || exit 1
import sys, tracediff
if not tracediff.__file__.startswith(sys.argv[1]):
    sys.exit(f"python-wheel: tracediff imported from {tracediff.__file__}, not the venv")
maps = [line.split()[-1] for line in open("/proc/self/maps") if "/lib" in line]
libs = sorted({m for m in maps if any(k in m.rsplit("/", 1)[-1] for k in ("libboost_", "libisal", "libdeflate"))})
if libs:
    sys.exit(f"python-wheel: import tracediff loaded {', '.join(libs)}")
PY
export MPLBACKEND=Agg
"$tmp/venv/bin/python" "$repo/tests/python/test_tracediff.py" "$tmp/cli" &&
  "$tmp/venv/bin/python" "$repo/tests/python/test_hta_api.py" "$tmp/cli" &&
  { "$tmp/venv/bin/python" "$repo/tests/python/hta/run_hta.py"; rc=$?; [ $rc = 0 ] || [ $rc = 77 ]; }
EOF
hide=0
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && unshare --mount true 2>/dev/null; then
  hide=1
  run=(unshare --mount --propagation private bash "$tmp/run.sh" "$tmp" "$repo" 1)
else
  note=" (no mount namespace: readelf check only)"
  run=(bash "$tmp/run.sh" "$tmp" "$repo" 0)
fi
if "${run[@]}"; then
  pass
  ((hide)) && echo "python-wheel: tests/python (and HTA's own tests) passed from a venv, with Boost's and ISA-L's libraries and headers hidden"
else
  fail "tests/python from the venv$note"
fi
summary
