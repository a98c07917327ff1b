#!/usr/bin/env bash
# scripts/bench.sh: tracediff throughput/memory benchmark (issue #6). See bench/README.md.
#
#   bash scripts/bench.sh                 # all sets, 5 runs each
#   bash scripts/bench.sh --quick         # set (a) only
#   bash scripts/bench.sh --sets b,c --runs 3
#   bash scripts/bench.sh --check         # the sets bench/budget.tsv names; exit 1 over a budget
#   bash scripts/bench.sh --check --sets h   # the pages' time to interactive in Chromium alone
#
# Builds Release into build-bench/ (tracediff, tracegen, tracediff_floor), generates
# the synthetic inputs into bench/data/ once (cached; rm -rf bench/data to redo), then
# for each input set runs the whole `tracediff CONTROL TEST -o OUT.html -q` and the
# single-threaded floor (libdeflate + null Boost.JSON parse) R times, interleaved, and
# prints medians. Machine-readable results: build-bench/results.tsv (medians) and
# build-bench/results-runs.tsv (every run).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$ROOT/../shared
BUILD=${BENCH_BUILD_DIR:-$ROOT/build-bench}
DATA=$ROOT/bench/data
RUNS=5
SETS=a,b,c,d,f
SETS_GIVEN=0
# Set e is not in the default list: about 1.8 GB of JSON to generate and read.
DO_BUILD=1
CHECK=0
BUDGET=$ROOT/bench/budget.tsv

usage() {
  cat <<EOF
usage: bash scripts/bench.sh [--runs N] [--quick] [--sets a,b,c,d,e,f,g,h,k] [--no-build] [--check]

  --runs N      timed runs of tracediff and of the floor per set (default 5)
  --quick       only set (a); same as --sets a
  --sets LIST   comma-separated subset of:
                  a  ../shared/traces/hta-trace-diff control vs test (2 real traces, gzip)
                  b  16 ranks x ~35 MB of JSON per side, gzip (tracegen, cached in bench/data/)
                  c  1 file x ~1 GB of JSON per side, gzip (tracegen, cached in bench/data/)
                  d  10,000 steps x 40,000 names that each run in one step, gzip (tracegen
                     --many-names): memory must grow with names + steps, not their product
                  e  1,000 ranks x 8 steps per side, gzip, --jitter 3 (tracegen, cached in
                     bench/data/): the 2,000 traces compared directly, and their summaries
                     (one per side, made once and cached) compared
                  f  8 ranks x ~35 MB per side with memory events (tracegen --memory; test:
                     a leak per step and a peak raised by aten::mm), gzip, cached in bench/data/
                  g  \`tracediff trend\` over 1,000 small summaries (tracegen --series 1000, a
                     10 % shift at run 700, each run summarised once; cached in bench/data/):
                     wall, peak RSS and page size against 5 s, 512 MiB, 5 MB (issue 30).
                     Not in the default sets.
                  k  10,000 ranks x 8 steps per side, as set e (tracegen, cached in bench/data/ranks10k/,
                     about 15 minutes to make the first time): the 20,000 traces compared directly,
                     and the two merged summaries compared. Not in the default sets
                  h  the pages in headless Chromium, time to interactive (median of R opens, each
                     in a fresh context; tests/browser/interactive.mjs): set a's report, a report
                     of 100,000 names a side (tracegen --many-names, cached in bench/data/) and
                     \`tracediff trend\` over set g's 1,000 runs (traces). Needs Debian's chromium,
                     node and tests/browser/node_modules (bash scripts/browser-test.sh installs
                     them). Not in the default sets; bench/budget.tsv's h lines.
  --no-build    use the binaries already in the build directory
  --check       measure the sets bench/budget.tsv names (unless --sets) and exit 1 when a
                median passes its budget there (wall/floor ratio, peak RSS, report size, set h's
                times to interactive, sets e and k's summaries' wall time and RSS); it says on
                which machine the budgets were set and what the floor takes on this one
Environment: BENCH_BUILD_DIR (default build-bench), CHROMIUM (set h; default /usr/bin/chromium).
EOF
}

die() { echo "bench.sh: $*" >&2; exit 1; }

while (($#)); do
  case $1 in
    --runs) [[ $# -ge 2 ]] || die "--runs needs a value"; RUNS=$2; shift 2 ;;
    --runs=*) RUNS=${1#*=}; shift ;;
    --quick) SETS=a SETS_GIVEN=1; shift ;;
    --sets) [[ $# -ge 2 ]] || die "--sets needs a value"; SETS=$2 SETS_GIVEN=1; shift 2 ;;
    --sets=*) SETS=${1#*=} SETS_GIVEN=1; shift ;;
    --check) CHECK=1; shift ;;
    --no-build) DO_BUILD=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
  esac
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs: expected a positive integer, got '$RUNS'"
# Budget lines: set, metric, limit (tab-separated; # comments).
BUDGET_LINES=()
BUDGET_MACHINE="(budget.tsv does not say)"
((CHECK)) && [[ ! -f $BUDGET ]] && die "--check: $BUDGET not found"
if [[ -f $BUDGET ]]; then
  while IFS=$'\t' read -r b_set b_metric b_limit _; do
    if [[ $b_set == "# machine:"* ]]; then BUDGET_MACHINE=${b_set#"# machine: "}; continue; fi
    [[ -z $b_set || $b_set == \#* ]] && continue
    if [[ $b_set == h ]]; then
      [[ $b_metric == report_tti_ms || $b_metric == big_tti_ms || $b_metric == trend_tti_ms ]] ||
        die "$BUDGET: unknown metric '$b_metric' of set h (report_tti_ms, big_tti_ms or trend_tti_ms)"
    else
      [[ $b_metric == ratio || $b_metric == rss_mib || $b_metric == html_kb || $b_metric == critical_path_pct ||
         $b_metric == summaries_wall_s || $b_metric == summaries_rss_mib ]] ||
        die "$BUDGET: unknown metric '$b_metric' (ratio, rss_mib, html_kb, critical_path_pct, summaries_wall_s or summaries_rss_mib)"
    fi
    [[ $b_limit =~ ^[0-9]+([.][0-9]+)?$ ]] || die "$BUDGET: limit '$b_limit' of $b_set $b_metric is not a number"
    BUDGET_LINES+=("$b_set $b_metric $b_limit")
  done <"$BUDGET"
  ((${#BUDGET_LINES[@]})) || ((!CHECK)) || die "--check: no budget in $BUDGET"
  if ((CHECK && !SETS_GIVEN)); then
    SETS=$(printf '%s\n' "${BUDGET_LINES[@]}" | awk '{print $1}' | sort -u | paste -sd, -)
  fi
fi
IFS=, read -r -a SET_LIST <<<"$SETS"
((${#SET_LIST[@]})) || die "--sets: empty"
for s in "${SET_LIST[@]}"; do
  [[ $s == a || $s == b || $s == c || $s == d || $s == e || $s == f || $s == g || $s == h || $s == k ]] || die "--sets: unknown set '$s' (expected a, b, c, d, e, f, g, h or k)"
done

# --- Tools ------------------------------------------------------------------

TIME=/usr/bin/time
if ! "$TIME" -f '%e' true >/dev/null 2>&1; then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "== installing GNU time" >&2
    apt-get install -y time >/dev/null || die "apt-get install time failed"
  fi
  "$TIME" -f '%e' true >/dev/null 2>&1 || die "GNU time (/usr/bin/time) is needed: apt-get install time"
fi

TD=$BUILD/tracediff
TRACEGEN=$BUILD/tools/tracegen/tracegen
FLOOR=$BUILD/bench/tracediff_floor
if ((DO_BUILD)); then
  echo "== building Release in ${BUILD#"$ROOT"/}" >&2
  mkdir -p "$BUILD"
  log=$BUILD/bench-build.log
  if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF &&
         cmake --build "$BUILD" -j"$(nproc)" --target tracediff tracegen tracediff_floor; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "build failed (full log: $log)"
  fi
fi
for b in "$TD" "$TRACEGEN" "$FLOOR"; do
  [[ -x $b ]] || die "missing $b (build failed, or libdeflate-dev is not installed for tracediff_floor)"
done

# --- Inputs -----------------------------------------------------------------

TMPDIRS=()
cleanup() { ((${#TMPDIRS[@]})) && rm -rf "${TMPDIRS[@]}"; return 0; }
trap cleanup EXIT

# gen_side DIR TRACEGEN-ARGS...: (re)generates DIR unless it already holds exactly
# these arguments' output. Written to a temporary sibling, then renamed, so an
# interrupted run never leaves a half-written cache behind.
gen_side() {
  local dir=$1; shift
  local want="$*"
  if [[ -f $dir/.tracegen-args && $(<"$dir/.tracegen-args") == "$want" ]]; then return 0; fi
  echo "== generating ${dir#"$ROOT"/} (tracegen $want); cached for later runs" >&2
  local tmp=$dir.tmp.$$
  TMPDIRS+=("$tmp")
  rm -rf "$tmp"
  mkdir -p "$tmp"
  "$TRACEGEN" --out "$tmp" "$@" >/dev/null
  printf '%s\n' "$want" >"$tmp/.tracegen-args"
  rm -rf "$dir"
  mv "$tmp" "$dir"
}

declare -A CONTROL TEST LABEL RSS_TARGET RATIO_TARGET WALL_TARGET

# make_summaries SET: one summary per side of the set's traces, remade whenever the
# traces or tracediff are newer (the layout may have changed).
make_summaries() {
  local set=$1 side sum
  mkdir -p "${SUMMARIES[$set]}"
  for side in control test; do
    sum=${SUMMARIES[$set]}/$side.tdsum.json
    local traces=${CONTROL[$set]}
    [[ $side == test ]] && traces=${TEST[$set]}
    if [[ ! -f $sum || $sum -ot $TD || $sum -ot $traces/.tracegen-args ]]; then
      echo "== summarizing set $set's $side" >&2
      "$TD" summarize "$traces" -o "$sum" -q || die "tracediff summarize failed on set $set"
    fi
  done
}
LABEL[a]="hta-trace-diff (real)"
CONTROL[a]=$SHARED/traces/hta-trace-diff/control
TEST[a]=$SHARED/traces/hta-trace-diff/test
RSS_TARGET[a]=32
LABEL[b]="16 ranks x 35 MB, gz"
CONTROL[b]=$DATA/scale/control
TEST[b]=$DATA/scale/test
RSS_TARGET[b]=128
LABEL[c]="1 file x 1 GB, gz"
CONTROL[c]=$DATA/big/control
TEST[c]=$DATA/big/test
RSS_TARGET[c]=256
LABEL[d]="10k steps x 40k names, gz"
CONTROL[d]=$DATA/names/control
TEST[d]=$DATA/names/test
RSS_TARGET[d]=512
LABEL[e]="1000 ranks x 8 steps, gz"
CONTROL[e]=$DATA/ranks/control
TEST[e]=$DATA/ranks/test
RSS_TARGET[e]=256
WALL_TARGET[e]=2  # issue 28: seconds, not a ratio to the floor
LABEL[f]="8 ranks x 35 MB, memory"
CONTROL[f]=$DATA/memory/control
TEST[f]=$DATA/memory/test
RSS_TARGET[f]=128
LABEL[k]="10000 ranks x 8 steps, gz"
CONTROL[k]=$DATA/ranks10k/control
TEST[k]=$DATA/ranks10k/test
RSS_TARGET[k]=2048
# Sets e and k's summaries (tracediff summarize, one per side) and their comparison's targets
# (issue 28: 1,000 ranks; issue 44: 10,000).
declare -A SUMMARIES SUM_WALL_TARGET SUM_RSS_TARGET SUM_ROW SUM_WALL SUM_RSS
SUMMARIES[e]=$DATA/ranks/summaries SUM_WALL_TARGET[e]=0.5 SUM_RSS_TARGET[e]=128
SUMMARIES[k]=$DATA/ranks10k/summaries SUM_WALL_TARGET[k]=2 SUM_RSS_TARGET[k]=256
# Set g: a trend over 1,000 summaries (issue 30 item 3).
G_DIR=$DATA/series
G_WALL_TARGET=5
G_RSS_TARGET=512
G_HTML_TARGET_MB=5
G_ARGS=(--series 1000 --shift-at 700 --shift 10 --ranks 1 --steps 8 --layers 2 --jitter 2 --run-offset 1 --seed 1)
E_SUM_SIZE_TARGET_PCT=1
# Set h: the pages in Chromium (set a's report, 100,000 names a side, a trend over set g's runs).
H_BIG=$DATA/big-names
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

# The budget file's limits are the sets' targets where it has them.
for line in "${BUDGET_LINES[@]}"; do
  read -r b_set b_metric b_limit <<<"$line"
  case $b_metric in
    ratio) RATIO_TARGET[$b_set]=$b_limit ;;
    rss_mib) RSS_TARGET[$b_set]=$b_limit ;;
  esac
done

for s in "${SET_LIST[@]}"; do
  case $s in
    a)
      for d in "${CONTROL[a]}" "${TEST[a]}"; do
        [[ -d $d ]] || die "set a: $d not found (../shared/traces next to the repository)"
      done
      ;;
    b)
      gen_side "${CONTROL[b]}" --ranks 16 --target-mb 35 --seed 1 --gzip
      gen_side "${TEST[b]}" --ranks 16 --target-mb 35 --seed 2 --gzip --slowdown aten::mm=1.2
      ;;
    c)
      gen_side "${CONTROL[c]}" --ranks 1 --target-mb 1000 --seed 1 --gzip
      gen_side "${TEST[c]}" --ranks 1 --target-mb 1000 --seed 2 --gzip --slowdown aten::mm=1.2
      ;;
    d)
      gen_side "${CONTROL[d]}" --ranks 1 --steps 10000 --layers 1 --many-names 40000 --seed 1 --gzip
      gen_side "${TEST[d]}" --ranks 1 --steps 10000 --layers 1 --many-names 40000 --many-names-from 100 --seed 2 --gzip
      ;;
    f)
      # [memory] events are about a third of the events (issue 29); under a second to make.
      gen_side "${CONTROL[f]}" --ranks 8 --target-mb 35 --memory --seed 1 --gzip
      gen_side "${TEST[f]}" --ranks 8 --target-mb 35 --memory --memory-leak 65536 --memory-peak aten::mm=268435456 --seed 2 --gzip
      ;;
    g)
      gen_side "$G_DIR/runs" "${G_ARGS[@]}"
      if [[ ! -f $G_DIR/summaries.tsv || $G_DIR/summaries.tsv -ot $TD || $G_DIR/summaries.tsv -ot $G_DIR/runs/.tracegen-args ]]; then
        echo "== summarizing set g's 1,000 runs" >&2
        mkdir -p "$G_DIR/summaries"
        : >"$G_DIR/summaries.tsv.tmp"
        while IFS=$'\t' read -r run label; do
          "$TD" summarize "$G_DIR/runs/$run" -o "$G_DIR/summaries/$run.tdsum.json" -q || die "summarize failed on set g"
          printf 'summaries/%s.tdsum.json\t%s\n' "$run" "$label" >>"$G_DIR/summaries.tsv.tmp"
        done <"$G_DIR/runs/runs.tsv"
        mv "$G_DIR/summaries.tsv.tmp" "$G_DIR/summaries.tsv"
      fi
      ;;
    h)
      for d in "${CONTROL[a]}" "${TEST[a]}"; do
        [[ -d $d ]] || die "set h: $d not found (set a's pair: ../shared/traces next to the repository)"
      done
      # The browser test's big report and trend page, their inputs cached (set g's runs shared).
      gen_side "$H_BIG/control" --ranks 1 --steps 5 --gzip --many-names 100000
      gen_side "$H_BIG/test" --ranks 1 --steps 5 --gzip --many-names 100000 --many-names-from 5000 --seed 2 --slowdown addmm=1.3
      gen_side "$G_DIR/runs" "${G_ARGS[@]}"
      [[ -x $CHROMIUM ]] || die "set h: no Chromium at $CHROMIUM (apt-get install chromium, or CHROMIUM=PATH; bash scripts/browser-test.sh installs it)"
      command -v node >/dev/null || die "set h: node is needed (apt-get install nodejs npm)"
      if [[ ! -d $ROOT/tests/browser/node_modules/playwright-core ]]; then
        command -v npm >/dev/null || die "set h: tests/browser/node_modules is missing and npm with it (apt-get install npm)"
        echo "== npm ci in tests/browser (set h's playwright-core)" >&2
        (cd "$ROOT/tests/browser" && npm ci --no-audit --no-fund --loglevel=error >&2) || die "set h: npm ci failed"
      fi
      ;;
    e)
      gen_side "${CONTROL[e]}" --ranks 1000 --steps 8 --jitter 3 --seed 1 --gzip
      gen_side "${TEST[e]}" --ranks 1000 --steps 8 --jitter 3 --seed 2 --gzip --slowdown aten::mm=1.2
      make_summaries e
      ;;
    k)
      gen_side "${CONTROL[k]}" --ranks 10000 --steps 8 --jitter 3 --seed 1 --gzip
      gen_side "${TEST[k]}" --ranks 10000 --steps 8 --jitter 3 --seed 2 --gzip --slowdown aten::mm=1.2
      make_summaries k
      ;;
  esac
done

# --- Measuring --------------------------------------------------------------

TIMEFORMAT='%3R %3U %3S'  # bash's `time`: wall, user, system seconds, to the millisecond
# median of the numbers on stdin
median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
fmax() { sort -g | tail -n 1; }

OUTDIR=$BUILD/bench-out
mkdir -p "$OUTDIR"
RESULTS=$BUILD/results.tsv
RUNLOG=$BUILD/results-runs.tsv
printf 'set\tinput\tfiles\tinput_bytes\tjson_bytes\truns\ttd_wall_s\ttd_cpu_s\ttd_user_s\ttd_sys_s\ttd_rss_mib\ttd_json_mb_per_s\tfloor_wall_s\tfloor_cpu_s\tfloor_read_s\tfloor_inflate_s\tfloor_parse_s\tfloor_read_cpu_s\tfloor_inflate_cpu_s\tfloor_parse_cpu_s\tfloor_rss_mib\tratio\tcpu_ratio\twall_target_s\twall_ok\trss_target_mib\trss_ok\n' >"$RESULTS"
printf 'set\trun\tprogram\twall_s\tuser_s\tsys_s\tmax_rss_kib\tfloor_read_s\tfloor_inflate_s\tfloor_parse_s\tfloor_read_cpu_s\tfloor_inflate_cpu_s\tfloor_parse_cpu_s\n' >"$RUNLOG"

cpu_model=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || true)
echo "== $(nproc) cores (${cpu_model:-unknown CPU}), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo) RAM; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "== tracediff: $("$TD" --version 2>/dev/null | head -n 1 || echo '?'); $RUNS runs per set, interleaved with the floor" >&2

# Set g apart: one command, no floor to compare with.
G_ROW=
if [[ " ${SET_LIST[*]} " == *" g "* ]]; then
  echo "== set g: tracediff trend over 1,000 summaries" >&2
  g_wall=() g_rss=()
  tf=$(mktemp)
  TMPDIRS+=("$tf" "$tf.time")
  g_out=$OUTDIR/set-g-trend.html
  for ((i = 1; i <= RUNS; i++)); do
    { time "$TD" trend --runs-from "$G_DIR/summaries.tsv" -o "$g_out" --json "$OUTDIR/set-g-trend.json" -q >/dev/null 2>&1; } 2>"$tf.time" ||
      die "tracediff trend failed on set g (run $i)"
    read -r w _ _ <"$tf.time"
    "$TIME" -o "$tf" -f '%M' "$TD" trend --runs-from "$G_DIR/summaries.tsv" -o "$g_out" -q >/dev/null 2>&1 ||
      die "tracediff trend failed on set g (run $i, RSS)"
    read -r m <"$tf"
    g_wall+=("$w") g_rss+=("$m")
    printf '%s\t%d\ttrend\t%s\t\t\t%s\t\t\t\t\t\t\n' g "$i" "$w" "$m" >>"$RUNLOG"
  done
  gw=$(printf '%s\n' "${g_wall[@]}" | median)
  grss=$(printf '%s\n' "${g_rss[@]}" | fmax | awk '{printf "%.1f", $1 / 1024}')
  gmb=$(awk -v b="$(stat -c %s "$g_out")" 'BEGIN {printf "%.2f", b / 1e6}')
  G_ROW=$(awk -v w="$gw" -v r="$grss" -v h="$gmb" -v wt="$G_WALL_TARGET" -v rt="$G_RSS_TARGET" -v ht="$G_HTML_TARGET_MB" \
    'BEGIN {printf "g   trend over 1,000 summaries: wall %.3f s, RSS %.1f MiB, page %.2f MB   target: <= %d s %s, <= %d MiB %s, < %d MB %s\n",
      w, r, h, wt, (w <= wt ? "ok" : "MISS"), rt, (r <= rt ? "ok" : "MISS"), ht, (h < ht ? "ok" : "MISS")}')
  kept=()
  for s in "${SET_LIST[@]}"; do [[ $s == g ]] || kept+=("$s"); done
  SET_LIST=("${kept[@]}")
fi

# Set h apart too: the pages rendered once, then opened R times each in Chromium.
H_ROW=
declare -A H_MS
if [[ " ${SET_LIST[*]} " == *" h "* ]]; then
  echo "== set h: the pages in headless Chromium, time to interactive" >&2
  h_report=$OUTDIR/set-h-report.html h_big=$OUTDIR/set-h-big.html h_trend=$OUTDIR/set-h-trend.html
  "$TD" "${CONTROL[a]}" "${TEST[a]}" -o "$h_report" -q || die "tracediff failed on set h (set a's pair)"
  "$TD" "$H_BIG/control" "$H_BIG/test" -o "$h_big" -q || die "tracediff failed on set h (100,000 names a side)"
  "$TD" trend --runs-from "$G_DIR/runs/runs.tsv" -o "$h_trend" -q || die "tracediff trend failed on set h"
  tf=$(mktemp)
  TMPDIRS+=("$tf")
  node "$ROOT/tests/browser/interactive.mjs" --chromium "$CHROMIUM" --runs "$RUNS" --report "$h_report" \
    --big-report "$h_big" --trend-report "$h_trend" >"$tf" || die "set h: a page did not become interactive"
  while IFS=$'\t' read -r page med all; do
    H_MS[${page}_tti_ms]=$med
    i=0
    for ms in ${all//,/ }; do
      i=$((i + 1))
      printf '%s\t%d\tchromium-%s\t%s\t\t\t\t\t\t\t\t\t\n' h "$i" "$page" "$(awk -v m="$ms" 'BEGIN {printf "%.3f", m / 1000}')" >>"$RUNLOG"
    done
    printf '   %-6s %s ms (median; every open: %s)\n' "$page" "$med" "${all//,/, }" >&2
  done <"$tf"
  H_ROW=$(printf 'h   pages in headless Chromium, time to interactive (median of %d opens): report %s ms, big %s ms, trend %s ms' \
    "$RUNS" "${H_MS[report_tti_ms]:-?}" "${H_MS[big_tti_ms]:-?}" "${H_MS[trend_tti_ms]:-?}")
  kept=()
  for s in "${SET_LIST[@]}"; do [[ $s == h ]] || kept+=("$s"); done
  SET_LIST=("${kept[@]}")
fi

declare -A ROW HTML_KB EXACT_RATIO CP_PCT
# Set k's 20,000 traces are compared directly only when --sets names k (53 s and 2.1 GiB a run
# on the budgets' machine, the floor as long): its budget lines are its summaries'.
TRACE_SETS=()
for s in "${SET_LIST[@]}"; do
  if [[ $s == k ]] && ((!SETS_GIVEN)); then
    echo "== set k: the 20,000 traces directly are not measured (--sets k measures them)" >&2
    continue
  fi
  TRACE_SETS+=("$s")
done
for s in "${TRACE_SETS[@]}"; do
  c=${CONTROL[$s]} t=${TEST[$s]}
  out=$OUTDIR/set-$s.html
  echo "== set $s: ${LABEL[$s]}" >&2

  # Warm-up (page cache) and sizes.
  read -r files in_bytes json_bytes _ < <("$FLOOR" --tsv "$c" "$t") || die "tracediff_floor failed on set $s"
  [[ -n ${json_bytes:-} ]] || die "tracediff_floor printed nothing for set $s"

  td_wall=() td_cpu=() td_user=() td_sys=() td_rss=() nocp_wall=()
  # The critical path's cost (docs/critical-path.md): the same command without it, interleaved.
  measure_cp=0
  for line in "${BUDGET_LINES[@]}"; do [[ $line == "$s critical_path_pct "* ]] && measure_cp=1; done
  fl_wall=() fl_cpu=() fl_read=() fl_infl=() fl_parse=() fl_rss=() fl_readc=() fl_inflc=() fl_parsec=()
  tf=$(mktemp)
  TMPDIRS+=("$tf" "$tf.err" "$tf.out" "$tf.time")
  for ((i = 1; i <= RUNS; i++)); do
    # tracediff, the whole command (HTML report included). Wall and CPU time come from
    # bash's own `time` (no process between the shell and the program: /usr/bin/time
    # and $(...) forks added 5-6 ms to each side, a tenth of set a); peak RSS from a
    # second run under /usr/bin/time.
    if ! { time "$TD" "$c" "$t" -o "$out" -q >/dev/null 2>"$tf.err"; } 2>"$tf.time"; then
      cat "$tf.err" >&2 || true
      die "tracediff failed on set $s (run $i)"
    fi
    read -r w u sy <"$tf.time"
    "$TIME" -o "$tf" -f '%M' "$TD" "$c" "$t" -o "$out" -q >/dev/null 2>"$tf.err" ||
      { cat "$tf.err" >&2; die "tracediff failed on set $s (run $i, RSS)"; }
    read -r m <"$tf"
    td_wall+=("$w") td_user+=("$u") td_sys+=("$sy") td_rss+=("$m")
    if ((measure_cp)); then
      { time "$TD" "$c" "$t" -o "$out.nocp.html" -q --no-critical-path >/dev/null 2>"$tf.err"; } 2>"$tf.time" ||
        { cat "$tf.err" >&2; die "tracediff --no-critical-path failed on set $s (run $i)"; }
      read -r ncw _ _ <"$tf.time"
      nocp_wall+=("$ncw")
      printf '%s	%d	no-critical-path	%s									
' "$s" "$i" "$ncw" >>"$RUNLOG"
    fi
    td_cpu+=("$(awk -v a="$u" -v b="$sy" 'BEGIN {printf "%.3f", a + b}')")
    printf '%s\t%d\ttracediff\t%s\t%s\t%s\t%s\t\t\t\t\t\t\n' "$s" "$i" "$w" "$u" "$sy" "$m" >>"$RUNLOG"

    # the floor, timed the same way; its RSS (informative) from the first run only
    { time "$FLOOR" --tsv "$c" "$t" >"$tf.out" 2>"$tf.err"; } 2>"$tf.time" ||
      { cat "$tf.err" >&2; die "tracediff_floor failed on set $s (run $i)"; }
    read -r w u sy <"$tf.time"
    read -r _ _ _ _ rd inf ps rdc infc psc <"$tf.out"
    if ((i == 1)); then
      "$TIME" -o "$tf" -f '%M' "$FLOOR" --tsv "$c" "$t" >/dev/null 2>"$tf.err" ||
        { cat "$tf.err" >&2; die "tracediff_floor failed on set $s (RSS)"; }
      read -r m <"$tf"
    fi
    fl_wall+=("$w") fl_cpu+=("$(awk -v a="$u" -v b="$sy" 'BEGIN {printf "%.3f", a + b}')") fl_read+=("$rd") fl_infl+=("$inf") fl_parse+=("$ps") fl_rss+=("$m") fl_readc+=("$rdc") fl_inflc+=("$infc") fl_parsec+=("$psc")
    printf '%s\t%d\tfloor\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$i" "$w" "$u" "$sy" "$m" "$rd" "$inf" "$ps" "$rdc" "$infc" "$psc" >>"$RUNLOG"
    printf '   run %d/%d: tracediff %6.2f s, %7.1f MiB   floor %6.2f s\n' "$i" "$RUNS" \
      "${td_wall[-1]}" "$(awk -v k="${td_rss[-1]}" 'BEGIN {print k / 1024}')" "${fl_wall[-1]}" >&2
  done
  rm -f "$tf.err" "$tf.out" "$tf.time"

  tw=$(printf '%s\n' "${td_wall[@]}" | median)
  if ((measure_cp)); then
    ncw=$(printf '%s\n' "${nocp_wall[@]}" | median)
    CP_PCT[$s]=$(awk -v a="$tw" -v b="$ncw" 'BEGIN {printf "%.1f", (b > 0 ? 100 * (a - b) / b : 0)}')
    echo "   the critical path: ${CP_PCT[$s]} % of the command's wall time without it (medians: $tw s, $ncw s)" >&2
  fi
  tc=$(printf '%s\n' "${td_cpu[@]}" | median)
  tu=$(printf '%s\n' "${td_user[@]}" | median)
  tsy=$(printf '%s\n' "${td_sys[@]}" | median)
  trss=$(printf '%s\n' "${td_rss[@]}" | fmax | awk '{printf "%.1f", $1 / 1024}')
  fw=$(printf '%s\n' "${fl_wall[@]}" | median)
  fc=$(printf '%s\n' "${fl_cpu[@]}" | median)
  frd=$(printf '%s\n' "${fl_read[@]}" | median)
  finf=$(printf '%s\n' "${fl_infl[@]}" | median)
  fps=$(printf '%s\n' "${fl_parse[@]}" | median)
  frdc=$(printf '%s\n' "${fl_readc[@]}" | median)
  finfc=$(printf '%s\n' "${fl_inflc[@]}" | median)
  fpsc=$(printf '%s\n' "${fl_parsec[@]}" | median)
  frss=$(printf '%s\n' "${fl_rss[@]}" | fmax | awk '{printf "%.1f", $1 / 1024}')
  read -r mb mbps ratio cratio wt wok rok < <(awk -v j="$json_bytes" -v tw="$tw" -v fw="$fw" -v tc="$tc" -v fc="$fc" \
    -v r="$trss" -v rt="${RSS_TARGET[$s]}" -v k="${RATIO_TARGET[$s]:-0}" -v wtt="${WALL_TARGET[$s]:-}" \
    'BEGIN {t = (wtt != "" ? wtt : k * fw);  # set e: seconds, not a ratio to the floor
            printf "%.1f %.0f %.2f %.2f %.3f %s %s\n", j / 1e6, j / 1e6 / tw, tw / fw, (fc > 0 ? tc / fc : 0), t,
            (wtt == "" && k == 0 ? "none" : tw <= t ? "yes" : "no"), (r <= rt ? "yes" : "no")}')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$s" "${LABEL[$s]}" "$files" "$in_bytes" "$json_bytes" "$RUNS" "$tw" "$tc" "$tu" "$tsy" "$trss" "$mbps" \
    "$fw" "$fc" "$frd" "$finf" "$fps" "$frdc" "$finfc" "$fpsc" "$frss" "$ratio" "$cratio" "$wt" "$wok" "${RSS_TARGET[$s]}" "$rok" >>"$RESULTS"
  ROW[$s]="$files $mb $tw $tc $trss $mbps $fw $ratio $wt $wok $rok $frd $finf $fps $frss $fc $frdc $finfc $fpsc $cratio"
  HTML_KB[$s]=$(awk -v b="$(stat -c %s "$out")" 'BEGIN {printf "%.1f", b / 1000}')
  EXACT_RATIO[$s]=$(awk -v tw="$tw" -v fw="$fw" 'BEGIN {printf "%.4f", tw / fw}')
done

# Sets e and k's summaries compared, R times (wall from bash's time, RSS from GNU time).
for es in e k; do
  [[ " ${SET_LIST[*]} " == *" $es "* ]] || continue
  echo "== set $es: the two summaries compared" >&2
  ec=${SUMMARIES[$es]}/control.tdsum.json et=${SUMMARIES[$es]}/test.tdsum.json
  e_wall=() e_rss=()
  tf=$(mktemp)
  TMPDIRS+=("$tf" "$tf.time")
  for ((i = 1; i <= RUNS; i++)); do
    { time "$TD" "$ec" "$et" -o "$OUTDIR/set-$es-summaries.html" -q >/dev/null 2>&1; } 2>"$tf.time" ||
      die "tracediff failed on set $es's summaries (run $i)"
    read -r w _ _ <"$tf.time"
    "$TIME" -o "$tf" -f '%M' "$TD" "$ec" "$et" -o "$OUTDIR/set-$es-summaries.html" -q >/dev/null 2>&1 ||
      die "tracediff failed on set $es's summaries (run $i, RSS)"
    read -r m <"$tf"
    e_wall+=("$w") e_rss+=("$m")
    printf '%s\t%d\tsummaries\t%s\t\t\t%s\t\t\t\t\t\t\n' "$es" "$i" "$w" "$m" >>"$RUNLOG"
  done
  SUM_WALL[$es]=$(printf '%s\n' "${e_wall[@]}" | median)
  SUM_RSS[$es]=$(printf '%s\n' "${e_rss[@]}" | fmax | awk '{printf "%.1f", $1 / 1024}')
  # The summaries' size against the JSON they stand for (each file's json_bytes).
  ebytes=$(($(stat -c %s "$ec") + $(stat -c %s "$et")))
  ejson=$(grep -ho '"json_bytes": [0-9]*' "$ec" "$et" | awk '{s += $2} END {print s + 0}')
  SUM_ROW[$es]=$(awk -v s="$es" -v w="${SUM_WALL[$es]}" -v r="${SUM_RSS[$es]}" -v b="$ebytes" -v j="$ejson" \
    -v wt="${SUM_WALL_TARGET[$es]}" -v rt="${SUM_RSS_TARGET[$es]}" -v st="$E_SUM_SIZE_TARGET_PCT" 'BEGIN {p = (j > 0 ? 100 * b / j : 0);
      printf "%s   summaries (2 files, %.1f MB, %.2f%% of the JSON): wall %.3f s, RSS %.1f MiB   target: <= %.1f s %s, <= %d MiB %s, <= %d%% %s\n",
        s, b / 1e6, p, w, r, wt, (w <= wt ? "ok" : "MISS"), rt, (r <= rt ? "ok" : "MISS"), st, (p <= st ? "ok" : "MISS")}')
done

# --- Report -----------------------------------------------------------------

echo "== load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo
echo "tracediff vs floor; medians of $RUNS runs (RSS: max); targets: bench/budget.tsv's ratio and RSS where it has them, else RSS <= 32/128/256/512/128 MiB (a/b/c/d/f); set e: wall <= 2 s, RSS <= 256 MiB"
echo "wall s/CPU s/RSS: the whole tracediff command; floor: one thread, whole-file libdeflate + null Boost.JSON parse;"
echo "ratio: tracediff wall / floor wall; CPU r.: tracediff CPU (user+sys, all threads) / floor CPU"
echo
fmt='%-3s %-22s %5s %8s %7s %6s %8s %6s %8s %7s %6s %6s   %s\n'
# shellcheck disable=SC2059
printf "$fmt" set input files "JSON MB" "wall s" "CPU s" "RSS MiB" "MB/s" "floor s" "fl CPU" ratio "CPU r." "target (wall / RSS)"
for s in "${TRACE_SETS[@]}"; do
  read -r files mb tw tc trss mbps fw ratio wt wok rok _ _ _ _ fc _ _ _ cratio <<<"${ROW[$s]}"
  verdict() { [[ $1 == yes ]] && echo ok || echo MISS; }
  wall_target="no wall target"
  [[ $wok != none ]] && wall_target="<= $(printf %.3f "$wt") s $(verdict "$wok")"
  # shellcheck disable=SC2059
  printf "$fmt" "$s" "${LABEL[$s]}" "$files" "$mb" "$(printf %.3f "$tw")" "$(printf %.3f "$tc")" "$trss" "$mbps" \
    "$(printf %.3f "$fw")" "$(printf %.3f "$fc")" "$(printf %.2fx "$ratio")" "$(printf %.2fx "$cratio")" \
    "$wall_target, <= ${RSS_TARGET[$s]} MiB $(verdict "$rok")"
done
for es in e k; do
  if [[ -n ${SUM_ROW[$es]:-} ]]; then
    echo
    echo "${SUM_ROW[$es]}"
  fi
done
if [[ -n $G_ROW ]]; then
  echo
  echo "$G_ROW"
fi
if [[ -n $H_ROW ]]; then
  echo
  echo "$H_ROW"
fi
echo
echo "floor breakdown (one thread; medians, s; phases in thread CPU time, which load on the machine barely affects):"
fmt2='%-3s %8s %8s %8s %8s %9s %9s\n'
# shellcheck disable=SC2059
printf "$fmt2" set read inflate parse "CPU sum" "wall" "RSS MiB"
for s in "${TRACE_SETS[@]}"; do
  read -r _ _ _ _ _ _ fw _ _ _ _ _ _ _ frss _ frdc finfc fpsc _ <<<"${ROW[$s]}"
  # shellcheck disable=SC2059
  printf "$fmt2" "$s" "$(printf %.3f "$frdc")" "$(printf %.3f "$finfc")" "$(printf %.3f "$fpsc")" \
    "$(awk -v a="$frdc" -v b="$finfc" -v c="$fpsc" 'BEGIN {printf "%.3f", a + b + c}')" "$(printf %.3f "$fw")" "$frss"
done
echo
echo "HTML report: $(for s in "${TRACE_SETS[@]}"; do printf '%s %s KB  ' "$s" "${HTML_KB[$s]}"; done)"
echo "results: ${RESULTS#"$ROOT"/} (medians), ${RUNLOG#"$ROOT"/} (every run); reports: ${OUTDIR#"$ROOT"/}/"

# --- Budgets (--check) ------------------------------------------------------

if ((CHECK)); then
  echo
  echo "budgets (${BUDGET#"$ROOT"/}; ${RUNS} runs, medians; RSS: the maximum):"
  # The ratio is to the floor measured here, now, so it carries across machines; times in
  # seconds (sets e, k and h) and sizes do not scale, and are the machine's below.
  echo "  set on: $BUDGET_MACHINE"
  echo "  here:   $(nproc) cores, ${cpu_model:-unknown CPU}; the floor (one thread: libdeflate + an empty Boost.JSON parse):$(
    for s in "${SET_LIST[@]}"; do [[ -n ${ROW[$s]:-} ]] && { read -r _ _ _ _ _ _ fw _ <<<"${ROW[$s]}"; printf ' set %s %.3f s;' "$s" "$fw"; }; done)"
  failed=0 checked=0
  for line in "${BUDGET_LINES[@]}"; do
    read -r b_set b_metric b_limit <<<"$line"
    if [[ $b_set == h ]]; then
      if [[ -z ${H_MS[$b_metric]:-} ]]; then
        echo "  set $b_set $b_metric: not measured (--sets leaves it out)"
        continue
      fi
      value=${H_MS[$b_metric]} unit="ms"
    else
      if [[ $b_metric == summaries_* ]]; then
        if [[ -z ${SUM_WALL[$b_set]:-} ]]; then
          echo "  set $b_set $b_metric: not measured (--sets leaves it out)"
          continue
        fi
      elif [[ -z ${ROW[$b_set]:-} ]]; then
        echo "  set $b_set $b_metric: not measured (--sets leaves it out)"
        continue
      fi
      read -r _ _ _ _ trss _ <<<"${ROW[$b_set]:-}"
      case $b_metric in
        ratio) value=${EXACT_RATIO[$b_set]} unit="x the floor" ;;
        rss_mib) value=$trss unit="MiB" ;;
        html_kb) value=${HTML_KB[$b_set]} unit="KB" ;;
        critical_path_pct) value=${CP_PCT[$b_set]} unit="% more wall time" ;;
        summaries_wall_s) value=${SUM_WALL[$b_set]:-} unit="s, the two summaries compared" ;;
        summaries_rss_mib) value=${SUM_RSS[$b_set]:-} unit="MiB, the two summaries compared" ;;
      esac
      [[ -n $value ]] || die "set $b_set has no $b_metric (only sets e and k have summaries)"
    fi
    checked=$((checked + 1))
    if awk -v v="$value" -v l="$b_limit" 'BEGIN {exit !(v <= l)}'; then
      printf '  ok    set %s %-8s %8s %s <= %s\n' "$b_set" "$b_metric" "$value" "$unit" "$b_limit"
    else
      printf '  OVER  set %s %-8s %8s %s >  %s\n' "$b_set" "$b_metric" "$value" "$unit" "$b_limit"
      failed=$((failed + 1))
    fi
  done
  if ((failed)); then
    echo "bench.sh --check: $failed of $checked budgets exceeded; a change that needs more raises bench/budget.tsv in the same commit" >&2
    exit 1
  fi
  echo "bench.sh --check: all $checked budgets held"
fi
