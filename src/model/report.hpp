#pragma once
// The result model, one thing: everything a writer shows, computed once by analysis/. Writers
// (HTML, JSON, CSV, Markdown, terminal) read it and never sort, filter or recompute.
//
// One row, as the CSV shows it:
//   name,category,device,control_count,test_count,...,change
//   aten::mm,cpu_op,cpu,48,48,...,unchanged
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/call_tree_diff.hpp"
#include "model/critical_path_report.hpp"
#include "model/diff_row.hpp"
#include "model/event_accounting.hpp"
#include "model/figure.hpp"
#include "model/gate_conditions.hpp"
#include "model/grouped_rows.hpp"
#include "model/input_diagnostics.hpp"
#include "model/memory_report.hpp"
#include "model/min_change.hpp"
#include "model/ranks.hpp"
#include "model/samples.hpp"
#include "model/side.hpp"
#include "model/step_detail.hpp"
#include "model/step_events.hpp"
#include "model/step_parts.hpp"
#include "model/top_list.hpp"
#include "model/trace.hpp"
#include "model/views.hpp"

namespace tracediff::model {

// A property on which the sides differ: the likeliest cause of a change, said first.
struct SideDifference {
  std::string what;           // "GPU", "World size", "CUDA runtime", "CUDA graphs", "torch.compile"
  std::string control, test;  // "NVIDIA A100-SXM4-80GB × 8"; "none" when a side lacks it
};

// The rows by what the report says of them (default mode), as every view counts them:
// regressions and improvements are the top lists' significant() counts; left_out the
// significant rows the lists fold, call renamed or swapped or that wait for the GPU (also
// counted apart, as `waiting`); same and untestable the
// rows within noise and not testable. They add up to the number of rows.
struct VerdictCounts {
  std::size_t regressions = 0, improvements = 0, left_out = 0, same = 0, untestable = 0;
  std::size_t waiting = 0;  // part of left_out
};

// The verdict line's mark (analysis/gate/verdict.cpp): fail (a --fail-on condition failed,
// or without a gate the step time is significantly slower), pass (significantly faster,
// or every gate condition passed), warn (a gate condition could not be evaluated),
// neutral (anything else).
enum class Mark : std::uint8_t { fail, pass, warn, neutral };
const char* mark_name(Mark m);  // "fail", "pass", "warn", "neutral"

struct DiffReport {
  SideSummary control, test;
  std::string device_filter = "all";  // cpu | gpu | all
  bool short_names = false;
  bool hta_compat = false;
  bool by_shape = false;                // --by-shape: rows carry shapes, FLOPs and TFLOP/s columns
  std::vector<DiffRow> rows;            // output order: HTA's in --hta-compat, else by_impact's
  std::vector<std::size_t> by_impact;   // |Δ duration| descending, then category, name
  OpsDiff ops_diff;
  std::vector<LauncherRow> by_launcher;  // default mode only; by |Δ per step| descending
  std::vector<FamilyRow> families;       // default mode only; by |Δ per step| descending, then id;
                                         // families with no time on either side left out
  // The families every view lists (indices into families), in their order: every significant
  // one, then the others until k_families_shown are listed, each by |Δ per step| descending.
  std::vector<std::size_t> families_shown;
  std::size_t families_changed = 0;      // of them, significant: 0 is "none changed beyond noise"
  RankComparison ranks;
  // The noise test compared runs (several runs on both sides: each run's median step is a
  // sample); false: steps of one run were the samples, run-to-run noise not measured.
  bool between_runs = false;
  MinChange min_change;                 // the --min-change thresholds in force
  Diagnostics diagnostics;              // both sides; samples name their file
  std::vector<std::string> notes;       // plain-language remarks ("compared whole: no ProfilerStep")

  // Decided once, shown by every writer (default mode; --hta-compat fills headline
  // with HTA's totals and the top lists by raw difference).
  std::string unit = "step";            // what one per-step unit is: "step", or "trace" (no steps)
  std::vector<Figure> headline;         // what people read first
  std::vector<Figure> breakdown;        // where the step time went
  std::vector<Figure> counts;           // calls per step of CPU operators and GPU work (totals in --hta-compat)
  std::vector<Figure> step_stats;       // step time: mean, median, min, max (not judged: the breakdown's is)
  std::vector<RankRow> rank_rows;       // when a side has more than one rank
  TopList top_regressions, top_improvements;
  // Rows whose self allocations per step changed significantly (DiffRow::memory.allocated),
  // largest |Δ bytes| first; empty without memory events.
  TopList allocates_more, allocates_less;
  std::vector<std::size_t> top_launchers;  // significant launchers, by |Δ per step|
  std::vector<SideDifference> sides_differ;
  std::vector<GateResult> gate;         // --fail-on, in the order given
  std::string gate_heading;             // "Gate failed: 1 of 3 --fail-on conditions hold", ...
  std::string verdict_line;             // analysis::verdict_line, after the gate: what every view opens with
  Mark verdict_mark = Mark::neutral;    // its mark, for the views that colour it
  std::string verdict_text;             // the line without its mark, for the views that draw the mark
  VerdictCounts verdict_counts;
  bool queue_backs_up = false;          // GPU work outlives its step on a side (a note says where)
  ChartRows charts;                     // what the HTML report's charts draw
  Embedded embedded;                    // what the HTML report embeds of its long lists
  StepChange step_change;               // default mode: why the step moved
  CriticalPathReport critical_path;     // default mode: what bounded the step
  // Memory per device (default mode), when either side's traces have [memory] events;
  // the headline then has "Peak memory allocated" / "reserved" (GPU, with totals).
  std::vector<MemoryDevice> memory;
  // The (device, figure) pairs of `memory` the terminal and the Markdown show, in order.
  std::vector<std::pair<std::size_t, std::size_t>> memory_shown;
  CallTree call_tree;                   // default mode only
  // --perfetto / --embed-perfetto: each side's median step as it ran (analysis/perfetto);
  // the page embeds it, with its button, only when embed_step_trace.
  std::shared_ptr<const StepTrace> step_trace;
  bool embed_step_trace = false;

  // by_impact when it is a permutation of the rows (a report built by hand in a test
  // may leave it empty), else row order.
  std::vector<std::size_t> impact_order() const;
};

}  // namespace tracediff::model
