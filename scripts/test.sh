#!/usr/bin/env bash
# Sets up (Debian packages, npm), builds, and runs the whole test suite:
#   1. unit, HTA-parity and end-to-end tests (Boost.Test via ctest)
#   2. the report in headless Chromium (playwright-core); the .deb, unpacked and run
#   2b. the summarize/merge recipe on a single-node Slurm cluster (skipped where Slurm cannot be had)
#   3. the same ctest suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   4. a 60-second libFuzzer run over the reader and the whole pipeline
# Ends with one line "tests: N passed, M failed, K skipped": the ctest stage counts Boost.Test
# cases (a case whose data is missing, e.g. the large traces of ../shared, is skipped), the
# others their checks; K also counts the browser test's "browser-test: K skipped" lines and a
# skipped Slurm test.
#
# scripts/test.sh --quick: the day-to-day loop (CONTRIBUTING.md): the Release build and its
# ctest stage only (unit, parity, end-to-end, goldens, schema, docs), without the browser,
# package, Slurm, sanitizer and fuzz stages. CI runs the whole suite.
set -uo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = --quick ] && quick=1
if ((quick)); then
  bash scripts/setup.sh || exit 1
else
  bash scripts/setup.sh --test || exit 1
fi

passed=0 failed=0 skipped=0
# Sums the reports of Boost.Test (--report_level=short) in ctest's log of every test. A
# suite's run says "Running N test cases..."; its report "P test cases out of T passed"
# and "F ... failed/aborted" (its "skipped" counts the other suites' cases too), so the
# cases skipped in the run are N - P - F. A run without a report (a crash) is left to ctest.
boost_cases() {  # LOG -> "P F S", or nothing without a report
  local log=$1
  [ -f "$log" ] && grep -aq '^Test module ".*" has' "$log" || return 0
  awk 'function flush() { if (rep) { p += bp; f += bf; s += n - bp - bf } rep = 0 }
       /^Running [0-9]+ test cases?/ { flush(); n = $2; bp = bf = 0 }
       /^Test module ".*" has (passed|failed)/ { rep = 1 }
       rep && /test cases? out of [0-9]+ passed/ { bp = $1 }
       rep && /test cases? out of [0-9]+ (failed|aborted)/ { bf += $1 }
       END { flush(); print p + 0, f + 0, s + 0 }' "$log"
}
# stage NAME [--cases BUILD_DIR] COMMAND...: run, echo, tally from the runner's own
# summary; with --cases, from the Boost.Test reports of the ctest run in BUILD_DIR.
stage() {
  local name=$1 cases='' log stamp rc p f s=0 bp bf bs
  shift
  if [ "$1" = --cases ]; then cases=$2/Testing/Temporary/LastTest.log; shift 2; fi
  echo "=== $name"
  log=$(mktemp) stamp=$(mktemp)
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  # ctest: "NN% tests passed, F tests failed out of T", refined to test cases from its
  # log (written by this run) when each suite printed its report; others: "P passed, F failed".
  if read -r f t < <(sed -nE 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1 \2/p' "$log" | tail -1); then
    p=$((t - f))
    if [ -n "$cases" ] && [ "$cases" -nt "$stamp" ] && read -r bp bf bs < <(boost_cases "$cases"); then
      p=$bp s=$bs
      ((bf > f)) && f=$bf  # else a suite that crashed (no report) keeps ctest's count
    fi
  elif read -r p f < <(sed -nE 's/^([a-z-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2 \3/p' "$log" | tail -1); then
    :
  else
    p=$((rc == 0)) f=$((rc != 0))
  fi
  s=$((s + $(sed -nE 's/^[a-z-]+: ([0-9]+) skipped.*/\1/p' "$log" | awk '{n += $1} END {print n + 0}')))
  if ((rc != 0 && f == 0)); then f=1; fi
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  rm -f "$log" "$stamp"
}

stage "ctest" --cases build ctest --test-dir build --output-on-failure -j2
if ((quick)); then
  echo "tests: $passed passed, $failed failed, $skipped skipped (--quick: ctest only)"
  exit $((failed != 0))
fi
stage "browser" bash scripts/browser-test.sh build/tracediff build/report-screenshot.png
[ -f scripts/package-test.sh ] && stage "package" bash scripts/package-test.sh build
stage "python-wheel" bash tests/python/wheel_test.sh build/tracediff  # docs/python.md
stage "python-install-errors" bash tests/python/install_errors_test.sh  # one line, no traceback, per missing piece
# --- Slurm (#19.8): the scale-out recipe of docs/summaries.md on a real single-node cluster. Exit 77 and
# "slurm: skipped (REASON)" when Slurm cannot be had (not root, no package): skipped, not failed.
echo "=== slurm"
timeout 200 bash tests/slurm/run.sh build
case $? in 0) passed=$((passed + 1)) ;; 77) skipped=$((${skipped:-0} + 1)) ;; *) failed=$((failed + 1)) ;; esac
# --- end Slurm
[ -f scripts/sanitize.sh ] && stage "sanitizers" --cases build-asan bash scripts/sanitize.sh
[ -f scripts/fuzz.sh ] && stage "fuzz" bash scripts/fuzz.sh 20

echo "tests: $passed passed, $failed failed, $skipped skipped"
((failed == 0))
