#!/usr/bin/env bash
# `pip wheel --no-build-isolation .` on a machine that lacks a piece of the build ends in one
# line that names it and its Debian package, and no Python traceback (setup.py,
# docs/python.md). Each case hides a piece and checks that pip fails, that exactly one line of
# its output begins with "tracediff:", that it is the expected one, and that no
# "Traceback (most recent call last)" appears:
#   cmake          PATH without cmake (a folder of links to everything else on PATH)
#   pybind11       TRACEDIFF_TEST_HIDE=pybind11: setup.py's look before CMake
#   two at once    TRACEDIFF_TEST_HIDE=cmake,pybind11: both in the one line
#   cmake-pybind11 CMake without pybind11 (-DCMAKE_DISABLE_FIND_PACKAGE_pybind11=ON, the look
#                  skipped): python/CMakeLists.txt's error, passed on by setup.py
#   boost          /usr/include/boost an empty folder in a mount namespace (root and unshare;
#                  else TRACEDIFF_TEST_HIDE=boost)
# Usage: tests/python/install_errors_test.sh. Prints "python-install-errors: N passed, M failed",
# or "python-install-errors: 1 skipped (REASON)" without a python3 with pip, setuptools and wheel.
set -uo pipefail
cd "$(dirname "$0")/../.."
py=""
for c in python3 /usr/bin/python3; do
  if command -v "$c" >/dev/null && "$c" -c "import setuptools, pip, wheel" 2>/dev/null; then py=$(command -v "$c"); break; fi
done
[ -n "$py" ] || { echo "python-install-errors: 1 skipped (no python3 with pip, setuptools and wheel)"; exit 0; }
tmp=$(mktemp -d /tmp/tracediff-test-install-errors.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0

# expect NAME LINE COMMAND...: COMMAND (a pip run) fails with LINE as its one "tracediff:" line.
expect() {
  local name=$1 line=$2 out=$tmp/$1.log rc ours
  shift 2
  "$@" >"$out" 2>&1
  rc=$?
  ours=$(sed -nE 's/^[[:space:]]*(tracediff: .*)$/\1/p' "$out")
  if ((rc == 0)); then
    echo "python-install-errors: $name: pip succeeded"
  elif grep -q "Traceback (most recent call last)" "$out"; then
    echo "python-install-errors: $name: a traceback:"; cat "$out"
  elif [ "$(printf '%s\n' "$ours" | grep -c .)" != 1 ]; then
    echo "python-install-errors: $name: not one 'tracediff:' line:"; cat "$out"
  elif [[ "$ours" != "$line"* ]]; then
    echo "python-install-errors: $name: '$ours', expected '$line'"
  else
    echo "python-install-errors: $name: $ours"
    passed=$((passed + 1))
    return
  fi
  failed=$((failed + 1))
}
wheel=("$py" -m pip wheel --no-build-isolation --no-deps . -w "$tmp/wheel")

# cmake: PATH holds links to every program of PATH but cmake (the first of each name).
mkdir "$tmp/bin"
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  for f in "$d"/*; do
    n=${f##*/}
    [ -x "$f" ] && [ ! -e "$tmp/bin/$n" ] && [[ $n != cmake* ]] && ln -s "$f" "$tmp/bin/$n"
  done
done
expect cmake "tracediff: cmake not found: apt-get install cmake" env PATH="$tmp/bin" "${wheel[@]}"
expect pybind11 "tracediff: pybind11 not found: apt-get install pybind11-dev" \
  env TRACEDIFF_TEST_HIDE=pybind11 "${wheel[@]}"
expect two-at-once "tracediff: cmake, pybind11 not found: apt-get install cmake pybind11-dev" \
  env TRACEDIFF_TEST_HIDE=pybind11,cmake "${wheel[@]}"
# CMake itself, in a folder of its own (the option would stay in build-python's cache). It
# configures the whole project first: only where the rest of the build is there.
if command -v cmake >/dev/null && [ -d /usr/include/boost/json ]; then
  expect cmake-pybind11 "tracediff: pybind11 not found: apt-get install pybind11-dev" \
    env TRACEDIFF_SKIP_CHECKS=1 TRACEDIFF_BUILD_DIR="$tmp/build" \
    TRACEDIFF_CMAKE_ARGS="${TRACEDIFF_CMAKE_ARGS:-} -DCMAKE_DISABLE_FIND_PACKAGE_pybind11=ON" "${wheel[@]}"
else
  echo "python-install-errors: cmake-pybind11: skipped (no cmake or Boost.JSON to configure with)"
  skipped=$((skipped + 1))
fi
boost_line="tracediff: Boost.JSON's headers (boost/json/src.hpp) not found: apt-get install libboost-json1.81-dev"
if [ "$(id -u)" = 0 ] && [ -d /usr/include/boost ] && unshare --mount true 2>/dev/null; then
  mkdir "$tmp/empty"
  expect boost "$boost_line" unshare --mount --propagation private \
    sh -c 'mount --bind "$0" /usr/include/boost && exec "$@"' "$tmp/empty" "${wheel[@]}"
else
  expect boost "$boost_line" env TRACEDIFF_TEST_HIDE=boost "${wheel[@]}"
fi
((skipped)) && echo "python-install-errors: $skipped skipped (see above)"
echo "python-install-errors: $passed passed, $failed failed"
((failed == 0))
