#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang and runs each for a while:
# fuzz_reader and fuzz_pipeline on traces, fuzz_summary on *.tdsum.json summaries.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]      default 20 (three targets: about a minute; CI)
#   scripts/fuzz.sh --long [SECONDS_PER_TARGET] [--corpus DIR]
#                                             nightly: default 3600 s a target, on every core
#                                             (-fork), the corpus kept in DIR (default
#                                             fuzz-corpus/ beside the checkout's build dirs)
#                                             and minimised at the end, so the next night
#                                             starts where this one stopped
#   FUZZ_BUILD_DIR=DIR scripts/fuzz.sh ...     build there instead of build-fuzz
#
# Seeds: tests/fuzz/corpus (committed; replayed by ctest as `fuzz_corpus`), a few KB
# slices of tests/data/traces, and, when a test binary is built, the inputs of the
# `malformed` suite. The corpus' seed-* files are traces in the pathological shapes
# (tests/fuzz/make_seeds.py writes them), and fuzz_reader and fuzz_pipeline get a
# dictionary of Kineto keys, names and hostile strings (tests/fuzz/kineto.dict). fuzz_summary starts from the corpus' summary-* files and, when a
# tracediff binary is built, summaries of the traces of tests/data; it has its own
# dictionary (tests/fuzz/summary.dict) and a JSON-aware mutator.
# New interesting inputs go to $FUZZ_BUILD_DIR/corpus-<target>.
# A crash, leak or timeout leaves its input in $FUZZ_BUILD_DIR/artifacts and is copied
# to tests/fuzz/corpus/crash-<name>-<sha1> (name: reader, pipeline, summary), so
# `ctest -R fuzz_corpus` reproduces it until it is fixed; the script then exits 1.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
long=0
seconds=20
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --long) long=1; seconds=3600 ;;
    --corpus) keep=${2:?--corpus needs a directory}; shift ;;
    [0-9]*) seconds=$1 ;;
    *) echo "fuzz.sh: unknown argument $1 (usage: fuzz.sh [--long] [SECONDS] [--corpus DIR])" >&2; exit 2 ;;
  esac
  shift
done
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
[ $long = 1 ] && keep=${keep:-$root/fuzz-corpus}
shared=$root/tests/data/traces  # the small real traces (tests/data/README.md)
cd "$root"

if ! command -v clang++ >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y clang >/dev/null
  else
    echo "fuzz.sh: clang++ is needed (apt-get install clang)" >&2
    exit 1
  fi
fi

echo "== build ($build)"
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTRACEDIFF_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" --target fuzz_reader fuzz_pipeline fuzz_summary

echo "== seeds"
seeds=$build/seeds
rm -rf "$seeds"
mkdir -p "$seeds" "$build/artifacts"
cp tests/fuzz/corpus/* "$seeds"/
if [ -d "$shared" ]; then
  # Small traces only, decompressed, a few KB from the start and from the middle.
  for f in "$shared"/formats/*.json* "$shared"/hta-trace-compare/*/*.json.gz "$shared"/two-ranks/*.json.gz; do
    [ -f "$f" ] || continue
    [ "$(stat -c %s "$f")" -lt 400000 ] || continue
    name=$(basename "$f")
    zcat -f "$f" | head -c 4096 >"$seeds/slice-head-$name" || true
    zcat -f "$f" | tail -c +20000 | head -c 4096 >"$seeds/slice-mid-$name" || true
  done
fi
for tests in "$root"/build/tests/tracediff_tests "$root"/build-mal/tests/tracediff_tests; do
  if [ -x "$tests" ]; then
    TRACEDIFF_SEED_DIR=$seeds "$tests" --run_test=malformed \
      --run_test='!malformed/gzip_bomb_is_streamed_in_bounded_memory' >/dev/null 2>&1 || true
    break
  fi
done
echo "$(ls "$seeds" | wc -l) seed files"

# fuzz_summary: summaries, committed and freshly written by a built tracediff from
# the traces of tests/data (one summary per trace, and the two ranks together).
summary_seeds=$build/seeds-summary
rm -rf "$summary_seeds"
mkdir -p "$summary_seeds"
cp tests/fuzz/corpus/summary-* tests/fuzz/corpus/crash-summary-* "$summary_seeds"/ 2>/dev/null || true
for tool in "$root"/build/tracediff "$build"/tracediff; do
  [ -x "$tool" ] && [ -d "$shared" ] || continue
  for f in "$shared"/formats/*.json* "$shared"/two-ranks; do
    [ -e "$f" ] || continue
    [ -d "$f" ] || [ "$(stat -c %s "$f")" -lt 400000 ] || continue
    out=$summary_seeds/made-$(basename "$f").tdsum.json
    "$tool" summarize "$f" -o "$out" -q >/dev/null 2>&1 || rm -f "$out"
    # Longer seeds would be cut at -max_len, into JSON that no longer parses.
    [ ! -f "$out" ] || [ "$(stat -c %s "$out")" -le 65536 ] || rm -f "$out"
  done
  break
done
echo "$(ls "$summary_seeds" | wc -l) summary seed files"

status=0
for target in fuzz_reader fuzz_pipeline fuzz_summary; do
  echo "== $target: ${seconds}s"
  # The corpus grows here; a nightly run keeps it outside the build directory.
  corpus=${keep:+$keep/$target}
  corpus=${corpus:-$build/corpus-$target}
  mkdir -p "$corpus"
  log=$build/$target.log
  target_seeds=$seeds
  extra=(-dict=tests/fuzz/kineto.dict)
  if [ $target = fuzz_summary ]; then
    target_seeds=$summary_seeds
    extra=(-dict=tests/fuzz/summary.dict)
  fi
  if [ $long = 1 ]; then
    # Every core, each a forked libFuzzer that keeps going past a crash (each crash
    # still leaves its input in artifacts/, copied to the corpus below).
    extra+=(-fork="$(nproc)" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  set +e
  "$build/tests/fuzz/$target" "$corpus" "$target_seeds" "${extra[@]}" -max_total_time="$seconds" -max_len=65536 \
    -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-" \
    >"$log" 2>&1
  rc=$?
  set -e
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|cov: " "$log" | tail -3 || true
  for a in "$build"/artifacts/"$target"-*; do
    [ -f "$a" ] || continue
    dest=tests/fuzz/corpus/crash-${target#fuzz_}-$(sha1sum "$a" | cut -c1-12)
    cp "$a" "$dest"
    echo "$target: FOUND $(basename "$a") -> $dest"
    rm -f "$a"
    status=1
  done
  if [ $rc -ne 0 ] && [ $status -eq 0 ]; then
    echo "$target: exited $rc (see $log)"
    status=1
  fi
  if [ $long = 1 ]; then
    # Minimise what was kept (the same coverage from fewer inputs) for the next run.
    rm -rf "$corpus.min" && mkdir -p "$corpus.min"
    "$build/tests/fuzz/$target" -merge=1 "$corpus.min" "$corpus" >>"$log" 2>&1 \
      && rm -rf "$corpus" && mv "$corpus.min" "$corpus" || rm -rf "$corpus.min"
    echo "$(ls "$corpus" | wc -l) inputs kept in $corpus"
  fi
done
[ $status -eq 0 ] && echo "fuzz.sh: no crash" || echo "fuzz.sh: crashes found (see above; replay: ctest -R fuzz_corpus)"
exit $status
