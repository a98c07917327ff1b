#pragma once
// What a comparison is asked to do: the sides' selections, the device, the name modes
// and the noise rule. One place for every default that the CLI, the tests and the
// fuzz target share.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/report.hpp"

namespace tracediff::analysis {

// --step-marker's pattern (analysis/summarize/step_marker.hpp), held here by pointer only:
// options are the lowest room of analysis/, below summarize/.
class StepMarker;


// Which run each step unit of a side belongs to (units in the order of
// SideSummary::step_details), runs numbered densely from 0.
struct UnitRuns {
  std::vector<std::uint32_t> of_unit;
  std::uint32_t runs = 0;
};

struct NoiseRule {
  model::MinChange min_change;  // the thresholds: smaller changes are "same"
  // Several runs on both sides: a figure's samples are its per-run medians, so that
  // what differs between runs (autotuning, clocks, a neighbour) is noise too
  // (docs/is-it-real.md "Several runs"). Null: one run on a side, step units are samples.
  std::shared_ptr<const UnitRuns> control_runs, test_runs;

  static NoiseRule of(const model::MinChange& min_change) {
    NoiseRule r;
    r.min_change = min_change;
    return r;
  }
  bool between_runs() const { return control_runs && test_runs; }
  // Sizes and counts: the relative rule alone (--min-change's duration is a time).
  NoiseRule relative() const {
    NoiseRule r = *this;
    r.min_change.ns = 0.0;
    return r;
  }
  // The rule for the step units [c_first, c_last) and [t_first, t_last) of each side
  // (one rank's, say), with their runs.
  NoiseRule slice(std::size_t c_first, std::size_t c_last, std::size_t t_first, std::size_t t_last) const;
};


enum class DeviceFilter { all, cpu, gpu };

struct Selection {
  std::optional<std::vector<int>> ranks;                // nullopt: the mode's default
  std::optional<std::vector<std::int64_t>> iterations;  // nullopt: the mode's default
  // Explicit "all": the same as the default mode's default, but --hta-compat's
  // default is the smallest rank and step.
  bool all_ranks = false;
  bool all_iterations = false;
  // --step-marker: host events whose names match define the side's steps (traces only;
  // a summary's steps were made when it was written).
  std::shared_ptr<const StepMarker> step_marker;
};

struct CompareOptions {
  Selection control, test;
  DeviceFilter device = DeviceFilter::all;
  bool short_names = false;
  bool hta_compat = false;
  // Rows of CPU operators keyed by name and input shapes (summaries' SummaryKey::shape);
  // matrix multiplications get FLOPs and TFLOP/s (analysis/names/flops.hpp).
  bool by_shape = false;
  // A per-step change counts only when at least this large (both must hold).
  model::MinChange min_change;
  // Host categories that count as operators (rows); nullopt: every host category.
  std::optional<std::vector<std::string>> categories;
  bool keep_warmup = false;  // keep a warm-up first step in the comparison
  // Pair names of one side only with names of the other that mean the same thing
  // (analysis/names/name_match.hpp); --exact-names turns it off.
  bool match_names = true;
  int top = 10;              // length of the top regressions and improvements
  // The critical path's model, as the summaries were made with it (--critical-path-model).
  std::string critical_path_model = "tracediff";

  NoiseRule noise_rule() const { return NoiseRule::of(min_change); }
};

}  // namespace tracediff::analysis
