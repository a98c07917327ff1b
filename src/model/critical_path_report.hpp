#pragma once
// What bounded the step, before and after (docs/critical-path.md): each side's critical
// path per step unit, its split by bound type, the rows that carry it, and what-ifs;
// decided by analysis/decide/critical_path.cpp, printed by every view. Part of the report
// (model/report.hpp).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/critical_path.hpp"
#include "model/figure.hpp"

namespace tracediff::model {

// One bound type's time on the path per step unit, judged, and its share of the path.
struct PathBound {
  Bound bound = Bound::cpu;
  std::string id;     // bound_id(): HTA's names
  std::string label;  // bound_label()
  Comparison time;
  double control_share = 0, test_share = 0;  // % of the path's length (sums over step units)
};

// A row's own work on the path, per step unit.
struct PathRow {
  std::size_t row = 0;  // index into DiffReport::rows
  Comparison time;
  // The row's time per step that is on the path, % (nullopt: no time on that side).
  std::optional<double> control_on_path, test_on_path;
  std::string change;  // "joined the path" (on the test side's path only), "left the path", or "" (both)
};

// A what-if: the named work made `factor` times as long, the path found again per step.
struct WhatIfResult {
  std::string side;     // "control" or "test"
  std::string label;    // the row's label, or the spec as given
  std::string spec;     // "aten::mm*0.8"
  std::optional<std::size_t> row;  // the row it shortens, when it is a row's
  double factor = 1;
  double saved_ns = 0;        // the path's length saved, median over the step units computed
  double saved_pct = 0;       // of the side's median path length
  std::optional<double> on_path_pct;  // the row's time on the path, % of its time
  std::size_t steps = 0;      // step units it was computed in
};

struct CriticalPathReport {
  bool decided = false;  // both sides have paths (traces, not summaries; not --hta-compat)
  // Why not, when a side has none: "summaries do not carry the critical path", ...
  std::string missing;
  std::string model;     // "tracediff" or "hta" (--critical-path-model)
  Comparison length;     // the path's length per step unit
  Comparison step;       // the step time, beside it
  std::vector<PathBound> bounds;  // every bound type with time on a side, in Bound's order
  // Each side's bound: the label of its largest bound type when that leads the next by ten
  // points of the path, else "mixed" (no one bound); and its id (bound_id(), or "mixed").
  std::string control_bound, test_bound;
  std::string control_bound_id, test_bound_id;
  bool bound_moved = false;               // the largest bound type is not the same
  std::vector<PathRow> rows;              // the rows with the most path time, by |Δ| then size
  std::vector<WhatIfResult> what_if;      // each side's top rows', then those asked
  // "Bound by CPU → GPU compute: CPU 71 % → 40 %, GPU compute 28 % → 57 % of the critical
  // path (64.7 ms → 71.2 ms, +6.5 ms)"
  std::string sentence;
  // "On the path: GEMM kernel +9.8 ms, aten::mm −1.2 ms (left)": the rows that moved most.
  std::string moved;
  // "What-if: Test's ncclKernel… 20 % faster → path −2.7 ms (−2.2 %)": each side's best.
  std::string what_if_line;
  // The bottom line's reading when the bound moved: "the step is now GPU compute-bound:
  // on the critical path, GEMM +9.8 ms"; empty otherwise.
  std::string reading;
  // "Asked: 'launch*0' → path −1.20 ms a step (Control), −0.80 ms (Test)": the --what-if
  // results, every view; empty without any.
  std::string asked_line;
  // Several ranks: the rank whose median path is longest, per side; and the rank the others'
  // collectives waited on (the straggler analysis, model/ranks.hpp), where there is one.
  std::optional<int> control_longest_rank, test_longest_rank;
  std::optional<int> control_waited_on, test_waited_on;
};

}  // namespace tracediff::model
