#!/usr/bin/env bash
# bench/parsers.sh: tracediff's JSON reader against Boost.JSON and simdjson on the same
# inflated bytes in memory, one thread (bench/parsers.cpp says what each row does).
# Installs libsimdjson-dev with apt-get when run as root and it is missing; without it
# the simdjson rows are left out.
#
# usage: bash bench/parsers.sh [--runs N] [FILE...]
#        (default: both traces of ../shared/traces/hta-trace-diff, 11 runs each)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build-bench
die() { echo "parsers.sh: $*" >&2; exit 1; }

runs=()
files=()
while (($#)); do
  case $1 in
    --runs) [[ $# -ge 2 ]] || die "--runs needs a number"; runs=(--runs "$2"); shift 2 ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) files+=("$1"); shift ;;
  esac
done
if ((${#files[@]} == 0)); then
  shared=$ROOT/../shared/traces/hta-trace-diff
  files=("$shared"/control/*.json.gz "$shared"/test/*.json.gz)
fi

if [[ ! -f /usr/include/simdjson.h ]] && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
  echo "== installing libsimdjson-dev (for this comparison only)" >&2
  apt-get install -y libsimdjson-dev >/dev/null || echo "parsers.sh: apt-get install libsimdjson-dev failed; simdjson rows left out" >&2
fi
echo "== building tracediff_parsers (Release) in ${BUILD#"$ROOT"/}" >&2
log=$BUILD/parsers-build.log
mkdir -p "$BUILD"
if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF &&
       cmake --build "$BUILD" -j"$(nproc)" --target tracediff_parsers; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  die "build failed (full log: $log)"
fi
for f in "${files[@]}"; do
  "$BUILD/bench/tracediff_parsers" "${runs[@]}" "$f"
  echo
done
