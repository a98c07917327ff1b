#!/usr/bin/env bash
# bench/perf_breakdown.sh: where does tracediff's CPU time go? Samples one run with
# `perf record` and sums the samples into buckets by symbol/library:
#   inflate   ISA-L or zlib (inflate, crc32), or libdeflate
#   json      Boost.JSON basic_parser (tokenising)
#   handler   tracediff::reading (the parser's handler: keys, numbers, events, string pool)
#   analysis  tracediff::analysis (summaries, steps, nesting, diff)
#   output    tracediff::output (HTML/CSV/JSON writers)
#   hashmaps  std::unordered_map lookups (string pool, correlations; caller not attributed)
#   alloc     malloc/free/new
#   kernel    everything in the kernel (page faults, read(), ...)
#   other     the rest (libc memcpy/memcmp/memset, dynamic loader, ...)
#
# usage: bash bench/perf_breakdown.sh [TRACEDIFF-ARGS...]
#        (default: the hta-trace-diff pair, with -o /tmp/…html -q; needs perf:
#         apt-get install linux-perf)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TD=${TRACEDIFF:-$ROOT/build-bench/tracediff}
[[ -x $TD ]] || { echo "perf_breakdown.sh: $TD not built (bash scripts/bench.sh --quick builds it)" >&2; exit 1; }
command -v perf >/dev/null || { echo "perf_breakdown.sh: perf not found (apt-get install linux-perf)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if (($# == 0)); then
  set -- "$ROOT/../shared/traces/hta-trace-diff/control" "$ROOT/../shared/traces/hta-trace-diff/test" -o "$work/report.html" -q
fi
perf record -q -F 4999 -o "$work/perf.data" -- "$TD" "$@" >/dev/null 2>"$work/record.err" ||
  { cat "$work/record.err" >&2; exit 1; }
perf report -i "$work/perf.data" --no-children --sort dso,sym -g none --percent-limit 0 -q --stdio 2>/dev/null |
  awk '
    /%/ {
      pct = $1; sub(/%/, "", pct)
      line = $0
      b = "other"
      if (line ~ /\[k\]/) b = "kernel"
      else if (line ~ /mustache/) b = "output"
      else if (line ~ /libz\.so|libisal|libdeflate|inflate|crc32|adler32|huffman/) b = "inflate"
      else if (line ~ /boost::json::basic_parser/) b = "json"
      else if (line ~ /tracediff::reading/) b = "handler"
      else if (line ~ /tracediff::analysis/) b = "analysis"
      else if (line ~ /tracediff::output|mustache/) b = "output"
      else if (line ~ /std::_Hashtable|std::__detail::_Map_base|_Hash_bytes/) b = "hashmaps"
      else if (line ~ /malloc|_int_free|cfree|operator new|operator delete|free@|\] free$|malloc_consolidate|unlink_chunk/) b = "alloc"
      sum[b] += pct; total += pct
    }
    END {
      n = split("inflate json handler analysis output hashmaps alloc kernel other", order, " ")
      printf "%-10s %6s\n", "bucket", "% CPU"
      for (i = 1; i <= n; i++) printf "%-10s %6.1f\n", order[i], sum[order[i]]
      printf "%-10s %6.1f\n", "(total)", total
    }'
