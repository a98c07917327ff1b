#pragma once
// compare_traces and ops_diff: two TraceSets in, one DiffReport out.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/step_marker.hpp"
#include "model/report.hpp"
#include "model/summary.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

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
  // matrix multiplications get FLOPs and TFLOP/s (analysis/flops.hpp).
  bool by_shape = false;
  // A per-step change counts only when at least this large (both must hold).
  double min_change_pct = 5.0;
  double min_change_us = 0.0;
  // Host categories that count as operators (rows); nullopt: every host category.
  std::optional<std::vector<std::string>> categories;
  bool keep_warmup = false;  // keep a warm-up first step in the comparison
  // Pair names of one side only with names of the other that mean the same thing
  // (analysis/name_match.hpp); --exact-names turns it off.
  bool match_names = true;
  int top = 10;              // length of the top regressions and improvements
};

// Throws UsageError for a rank or step that the side does not have, Fatal when a
// selection leaves nothing to compare in --hta-compat's terms (HTA's own errors).
model::DiffReport compare_traces(const model::TraceSet& control, const model::TraceSet& test,
                                 const CompareOptions& options);

// The default mode on summaries (traces already summarised, or loaded from
// `tracediff summarize` files): the same report as compare_traces.
model::DiffReport compare_summaries(const model::SetSummary& control, const model::SetSummary& test,
                                    const CompareOptions& options);

}  // namespace tracediff::analysis
