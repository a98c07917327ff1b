#pragma once
// `tracediff trend`: a series of runs in order, each reduced to its points (figures,
// kernel families and rows per step: the median over its step units and a noise band),
// the change points found in them (analysis/trend), and the newest run's gate. The one
// result every trend writer reads; writers only print it (docs/trend.md).
#include <cstdint>
#include <string>
#include <vector>

#include "model/gate_conditions.hpp"
#include "model/min_change.hpp"

namespace tracediff::model {

struct TrendRun {
  std::string path;    // as given (a directory, a trace or a *.tdsum.json)
  std::string label;   // --runs-from's label, else "run N" (1-based)
  std::size_t units = 0;  // step units its values are medians of (warm-up left out)
  std::size_t warmup = 0; // steps left out as warm-up
};

enum class SeriesKind : std::uint8_t { figure, family, row };
const char* series_kind_name(SeriesKind k);  // "figure", "family", "row"

// One figure, family or row over the runs. Per run: the median over its step units and
// the band of its per-unit values (p25 and p75); NaN where the run has none (a figure a
// run lacks; a row absent from a run is 0, it took no time there).
struct TrendSeries {
  SeriesKind kind = SeriesKind::figure;
  std::string id;        // figure id ("step_time"), family id ("gemm"), or a row's category
  std::string label;     // "Step time", "GEMM", or the row's name
  bool bytes = false;    // a size (peak memory), else ns
  bool headline = false; // a chart of its own in the page
  std::vector<float> value, lo, hi;  // one per run
  std::vector<std::size_t> changes;  // indices into TrendReport::changes, by run
};

struct TrendChange {
  std::size_t series = 0;     // index into TrendReport::series
  std::size_t run = 0;        // the first run after the change (index into runs)
  std::size_t before_run = 0; // the run before it (what `tracediff BEFORE AFTER` compares)
  double before = 0, after = 0;  // the two segments' medians of the run values
  double pct = 0;             // 100 (after - before) / before
  double confidence = 0;      // 1 - p
  bool newest = false;        // found by the newest-run check, not by the segmentation
  // The pairwise report of the two runs around it, for a shell (paths single-quoted
  // where they need it): "tracediff runs/16 runs/17 -o diff.html".
  std::string command;
};

struct TrendReport {
  std::vector<TrendRun> runs;
  std::vector<TrendSeries> series;  // figures (breakdown order), then families, then rows (by key)
  std::vector<TrendChange> changes; // by |pct| descending, then series, then run
  std::vector<std::size_t> moved;   // rows that moved most: indices into series, largest first
  MinChange min_change;             // the --min-change thresholds in force
  double alpha = 0.01;              // the segmentation's significance level
  double newest_sds = 4;            // the newest-run check: robust SDs beyond the previous segment
  std::size_t newest_min_runs = 5;  // ... needing this many runs in it
  // Rows seen in fewer than fold_min_runs runs (renamed or autotuned kernels, hashed
  // names) and not in the newest: summed into one series per category ("names in fewer
  // than N runs"), so that series grow with names that last, not with runs x names.
  std::size_t folded_rows = 0, fold_min_runs = 0;
  std::string folded_note;  // the sentence every view prints when rows were folded; "" if none
  std::vector<GateResult> gate;     // --fail-on trend:FIGURE
  std::string verdict;              // the newest run's verdict, one line ("step time +4.1 % since run 17 (a1b2c3d)")
};

}  // namespace tracediff::model
