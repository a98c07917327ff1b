#!/usr/bin/env bash
# Sets up (Debian packages, npm), builds, and runs the whole test suite:
#   1. unit, HTA-parity and end-to-end tests (Boost.Test via ctest)
#   2. the report in headless Chromium (playwright-core); the .deb, unpacked and run
#   2b. the summarize/merge recipe on a single-node Slurm cluster (skipped where Slurm cannot be had)
#   3. the same ctest suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   4. a 60-second libFuzzer run over the reader and the whole pipeline
# Ends with one line "tests: N passed, M failed" (stages count by their tests).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test || exit 1

passed=0 failed=0
stage() {  # stage NAME COMMAND...: run, echo, tally from the runner's own summary
  local name=$1 log rc p f
  shift
  echo "=== $name"
  log=$(mktemp)
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  # ctest: "NN% tests passed, F tests failed out of T"; others: "P passed, F failed".
  if read -r f t < <(sed -nE 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1 \2/p' "$log" | tail -1); then
    p=$((t - f))
  elif read -r p f < <(sed -nE 's/^([a-z-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2 \3/p' "$log" | tail -1); then
    :
  else
    p=$((rc == 0)) f=$((rc != 0))
  fi
  if ((rc != 0 && f == 0)); then f=1; fi
  passed=$((passed + p)) failed=$((failed + f))
  rm -f "$log"
}

stage "ctest" ctest --test-dir build --output-on-failure -j2
stage "browser" bash scripts/browser-test.sh build/tracediff build/report-screenshot.png
[ -f scripts/package-test.sh ] && stage "package" bash scripts/package-test.sh build
# --- Slurm (#19.8): the README's scale-out recipe on a real single-node cluster. Exit 77 and
# "slurm: skipped (REASON)" when Slurm cannot be had (not root, no package): skipped, not failed.
echo "=== slurm"
timeout 200 bash tests/slurm/run.sh build
case $? in 0) passed=$((passed + 1)) ;; 77) skipped=$((${skipped:-0} + 1)) ;; *) failed=$((failed + 1)) ;; esac
# --- end Slurm
[ -f scripts/sanitize.sh ] && stage "sanitizers" bash scripts/sanitize.sh
[ -f scripts/fuzz.sh ] && stage "fuzz" bash scripts/fuzz.sh 20

echo "tests: $passed passed, $failed failed"
((failed == 0))
