#pragma once
// One side of the comparison (SideSummary): its files, ranks and steps, what it ran on,
// its step times and where they went, its runs. Part of the report (model/report.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/critical_path.hpp"
#include "model/diff_row.hpp"
#include "model/event_accounting.hpp"
#include "model/memory_report.hpp"
#include "model/ranks.hpp"
#include "model/step_detail.hpp"
#include "model/trace.hpp"

namespace tracediff::model {

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

struct FileInfo {
  std::string path;
  int rank = 0;
  RankSource rank_source = RankSource::fallback;
  std::uint64_t events = 0;     // complete events kept
  std::uint64_t json_bytes = 0;
  bool truncated = false;
  Accounting accounting;  // after warm-up and selection: rows are what the comparison took
};

// What a side ran on and with, where its traces say so.
struct SideMeta {
  std::vector<std::string> gpus;          // "NVIDIA A100-SXM4-80GB × 8", one per distinct model
  std::vector<int> world_sizes;           // distinct distributedInfo.world_size
  std::vector<std::int64_t> cuda_runtime; // distinct cuda_runtime_version
  std::vector<std::int64_t> cuda_driver;  // distinct cuda_driver_version
  std::vector<int> gpus_with_work;        // distinct per-file counts of devices with GPU work
  bool cuda_graphs = false;               // a graph launch (cudaGraphLaunch, hipGraphLaunch)
  bool compiled = false;                  // torch.compile regions or Triton kernels
  std::vector<std::string> launcher_levels;  // distinct --launcher levels of its summaries
};

// Steps made by a --step-marker on one side (docs/is-it-real.md "Step markers"), per pattern and
// shape over the selected ranks' files.
struct StepMarkerUse {
  std::string pattern;
  bool spans = true;  // each match a step; false: a step from one match to the next
  std::uint64_t files = 0, matches = 0, steps = 0;
  std::vector<std::string> paths;  // its files (the notes name them when a side's files differ; not in the JSON)
};

// One run of a side (--control-run, --test-run, --runs): its inputs and its step time
// within the run, the spread that the between-run test sets the runs' spread against.
struct RunInfo {
  std::string inputs;                  // its paths, joined by ", "
  std::size_t files = 0, units = 0;    // its files, and its selected step units
  std::int64_t step_median_ns = 0;     // its one sample of the step time
  std::int64_t step_p25_ns = 0, step_p75_ns = 0;  // its steps' quartiles: within-run spread
  std::vector<std::string> gpu_names;  // distinct deviceProperties names
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
  // What bounded each step unit (model/critical_path.hpp), step_details' order; a unit
  // from a summary has none recorded.
  std::vector<StepPath> step_paths;
  // The what-ifs asked (--what-if): the path's length saved in each unit it was computed in.
  struct WhatIfSamples {
    std::string spec;
    double factor = 1;
    std::vector<double> saved_ns;
  };
  std::vector<WhatIfSamples> what_ifs;
  StepDetail step_mean;                   // means over step_details (rank, step = 0)
  std::vector<RankDetail> rank_details;   // one per selected rank
  std::vector<StepDetail> warmup;         // steps found to be warm-up and left out (docs/is-it-real.md)
  // Per warm-up step: left out for the GPU work without a recorded launch that piled up in
  // it (noise.hpp's is_backlog), not for its time.
  std::vector<bool> warmup_backlog;
  SideMeta meta;
  std::vector<StepMarkerUse> step_markers;  // empty: steps from ProfilerStep (or none)
  // With step_markers: the selected files whose steps are their ProfilerStep spans all the
  // same (no marker, or one that made no step there); the notes name them.
  std::vector<std::string> unmarked_files;
  // Compared whole: the --step-marker that most of its files suggest (FileSummary::marker_hint),
  // the name it matches and its repeats in the first such file; empty: none.
  std::string marker_hint, marker_hint_name;
  std::uint64_t marker_hint_count = 0;
  CollectiveMatch collectives;              // several ranks: who waited for whom
  // Each device's memory per step unit (MemoryStep::step indexes step_details), by
  // (device_type, device_id, step); empty when its selected files have no [memory]
  // events (or are summaries without them).
  std::vector<MemoryStep> memory;
  // Its median step's memory over time (by step time, among its files' median steps;
  // MemoryTimeline::step indexes step_details), where its traces have one.
  std::optional<MemoryTimeline> memory_timeline;
  // Several runs (RunInfo): each run, and the run of each step unit (step_details'
  // order); both empty for a side of one run.
  std::vector<RunInfo> runs;
  std::vector<std::uint32_t> unit_runs;
  // Step time: the runs' medians' spread (interquartile range over their median) and
  // the median of the runs' own step spreads, in %; set with several runs.
  std::optional<double> between_run_spread_pct, within_run_spread_pct;
  Accounting accounting;  // its files' together (FileInfo::accounting)
};

}  // namespace tracediff::model
