#pragma once
// The result model: everything a writer shows, computed once by analysis/. Writers
// (HTML, JSON, CSV, Markdown, terminal) read it and never sort, filter or recompute.
//
// One row, as the CSV shows it:
//   name,category,device,control_count,test_count,...,change
//   aten::mm,cpu_op,cpu,48,48,...,unchanged
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/diagnostics.hpp"
#include "model/trace.hpp"

namespace tracediff::model {

// HTA's ops_diff groups, by count (hta-tracediff-semantics.md §7).
enum class Change : std::uint8_t { added, deleted, increased, decreased, unchanged };
const char* change_name(Change c);   // "added", ...
const char* change_symbol(Change c); // HTA's "+", "-", "="

// Duration verdict of a row, from per-step figures and their noise (README "Is it real?").
enum class Verdict : std::uint8_t { slower, faster, same };
const char* verdict_name(Verdict v);  // "slower", "faster", "same"

struct SideStats {
  std::uint64_t count = 0;
  std::int64_t total_ns = 0;   // inclusive
  std::int64_t self_ns = 0;    // exclusive: host events minus their direct children; GPU work = total
};

// Per-step means of one side of a row: totals divided by the side's step units
// (selected steps × ranks; one unit per file in whole-trace mode).
struct PerStep {
  double count = 0;
  double total_ns = 0;
  double self_ns = 0;
  double stddev_ns = 0;  // spread of the per-unit totals (0 with fewer than 2 units)
};

struct DiffRow {
  std::string name;       // the key: full name, or HTA's short name with --short-names
  std::string full_name;  // the full name behind the key (first in order when several merge)
  std::string category;   // normalised cat; empty in --hta-compat, whose key is the name alone
  Device device = Device::cpu;
  SideStats control, test;
  PerStep control_step, test_step;
  Change change = Change::unchanged;       // by count (per step in the default mode)
  Verdict verdict = Verdict::same;         // by duration per step, noise-aware
  bool significant = false;                // the per-step change stands out from the noise
  std::string launched_by;                 // GPU rows: the CPU operator that launched most of its time

  double diff_per_step_ns() const { return test_step.total_ns - control_step.total_ns; }
  std::int64_t diff_count() const {
    return static_cast<std::int64_t>(test.count) - static_cast<std::int64_t>(control.count);
  }
  std::int64_t diff_ns() const { return test.total_ns - control.total_ns; }
  // Relative change of the duration: per step in the default mode, of the totals in
  // --hta-compat; nullopt when control is 0.
  std::optional<double> diff_pct() const;
  bool per_step_basis = true;  // false in --hta-compat
};

struct OpsDiff {
  // Names in row order, one list per Change. HTA's ops_diff always uses full names,
  // so with --hta-compat --short-names these are not the rows' keys.
  std::vector<std::string> groups[5];
  const std::vector<std::string>& of(Change c) const { return groups[static_cast<int>(c)]; }
};

// Step time (ProfilerStep#N durations) of one side, over the selected ranks and steps.
struct StepTimes {
  struct Step {
    int rank = 0;
    std::int64_t step = 0;
    std::int64_t dur_ns = 0;
  };
  std::vector<Step> steps;  // sorted by (rank, step)
  std::int64_t mean_ns = 0, median_ns = 0, min_ns = 0, max_ns = 0;
};

// Where one step's time went (means over a side's step units in StepBreakdown).
struct StepDetail {
  int rank = 0;
  std::int64_t step = 0;
  std::int64_t dur_ns = 0;
  std::int64_t gpu_busy_ns = 0;    // union of kernel/memcpy/memset intervals, per device, summed
  std::int64_t gpu_idle_ns = 0;    // step time × devices used − busy
  std::int64_t kernel_ns = 0;      // compute kernels (communication kernels apart)
  std::int64_t comm_ns = 0;        // NCCL/RCCL/HCCL communication kernels
  std::int64_t memcpy_ns = 0;
  std::int64_t memset_ns = 0;
  std::int64_t cpu_self_ns = 0;    // CPU operators' self time
  std::int64_t runtime_ns = 0;     // CUDA runtime/driver calls
};

struct RankDetail {
  int rank = 0;
  std::size_t steps = 0;
  std::int64_t step_mean_ns = 0;
  std::int64_t gpu_busy_mean_ns = 0;
};

struct FileInfo {
  std::string path;
  int rank = 0;
  RankSource rank_source = RankSource::fallback;
  std::uint64_t events = 0;     // complete events kept
  std::uint64_t json_bytes = 0;
  bool truncated = false;
};

struct SideSummary {
  std::string label;
  std::vector<std::string> inputs;
  std::vector<FileInfo> files;
  std::vector<int> ranks;                 // selected
  std::vector<int> available_ranks;
  std::vector<std::int64_t> iterations;   // selected steps (empty in whole-trace mode)
  std::vector<std::int64_t> available_iterations;
  bool whole_trace = false;               // no ProfilerStep anywhere: every event compared
  std::vector<std::string> gpu_names;     // distinct deviceProperties names
  StepTimes step_times;
  SideStats cpu_total, gpu_total;         // sums over rows of each device
  std::size_t units = 0;                  // step units: the per-step divisor
  std::vector<StepDetail> step_details;   // one per (rank, step), sorted
  StepDetail step_mean;                   // means over step_details (rank, step = 0)
  std::vector<RankDetail> rank_details;   // one per selected rank
};

// GPU time by the CPU operator that launched it (through the correlation id of the
// runtime call, then the innermost cpu_op around that call on its thread).
struct LauncherRow {
  std::string launcher;  // CPU operator name; "(unknown)" when the launch has no enclosing op
  double control_per_step_ns = 0, test_per_step_ns = 0;
  std::int64_t control_ns = 0, test_ns = 0;
  struct Kernel {
    std::string name;
    std::int64_t control_ns = 0, test_ns = 0;
  };
  std::vector<Kernel> kernels;  // by |Δ| descending, then name
};

// Ranks side by side: which one changed most (by mean step time).
struct RankComparison {
  std::int64_t control_spread_ns = 0, test_spread_ns = 0;  // max − min of rank step means
  std::optional<int> changed_most_control_rank, changed_most_test_rank;
  double changed_most_pct = 0;
};

struct DiffReport {
  SideSummary control, test;
  std::string device_filter = "all";  // cpu | gpu | all
  bool short_names = false;
  bool hta_compat = false;
  std::vector<DiffRow> rows;            // output order: HTA's in --hta-compat, else by_impact's
  std::vector<std::size_t> by_impact;   // |Δ duration| descending, then category, name
  OpsDiff ops_diff;
  std::vector<LauncherRow> by_launcher;  // default mode only; by |Δ per step| descending
  RankComparison ranks;
  double min_change_pct = 5.0;          // --min-change thresholds in force
  double min_change_us = 0.0;
  Diagnostics diagnostics;              // both sides; samples name their file
  std::vector<std::string> notes;       // plain-language remarks ("compared whole: no ProfilerStep")

  // by_impact when it is a permutation of the rows (a report built by hand in a test
  // may leave it empty), else row order.
  std::vector<std::size_t> impact_order() const;
};

}  // namespace tracediff::model
