#pragma once
// What a comparison is asked to do: the sides' selections, the device, the name modes
// and the noise rule. One place for every default that the CLI, the tests and the
// fuzz target share.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/summarize/step_marker.hpp"
#include "model/report.hpp"

namespace tracediff::analysis {

using model::k_default_min_change_pct;

struct NoiseRule {
  double min_change_pct = k_default_min_change_pct;  // smaller relative changes (of the median) are "same"
  double min_change_ns = 0.0;   // smaller absolute changes are "same"
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
  double min_change_pct = k_default_min_change_pct;
  double min_change_us = 0.0;
  // Host categories that count as operators (rows); nullopt: every host category.
  std::optional<std::vector<std::string>> categories;
  bool keep_warmup = false;  // keep a warm-up first step in the comparison
  // Pair names of one side only with names of the other that mean the same thing
  // (analysis/names/name_match.hpp); --exact-names turns it off.
  bool match_names = true;
  int top = 10;              // length of the top regressions and improvements

  NoiseRule noise_rule() const { return {min_change_pct, min_change_us * 1000.0}; }
};

}  // namespace tracediff::analysis
