#!/usr/bin/env bash
# Rewrites the golden outputs (tests/golden/<case>/) after an intended change of tracediff's
# output, then shows what changed. Review the diff and commit it with the change.
#   scripts/update-goldens.sh [BUILD_DIR] [CASE...]   (BUILD_DIR default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
if [ $# -gt 0 ] && [ -d "$1" ]; then build=$1; shift; fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target tracediff tracegen >/dev/null
bash tests/golden/run.sh "$build/tracediff" "$build/tools/tracegen/tracegen" --update "$@"
git diff --stat -- tests/golden
git status --short -- tests/golden | grep "^??" || true  # new cases, not in the diff
git diff -- tests/golden | head -200
