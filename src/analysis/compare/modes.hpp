#pragma once
// The two ways to compare, the default mode and HTA's, and what they share (modes.cpp).
// Internal to analysis/.
#include "analysis/compare_options.hpp"
#include "model/summary.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis::detail {

// The default mode (rows.cpp): the rows, launchers, call tree and families of two sets of
// summaries, judged, before decide.
model::DiffReport compare_default(const model::SetSummary& control, const model::SetSummary& test,
                                  const CompareOptions& options);
// --hta-compat (hta_compat.cpp): HTA's rows and totals, before decide_hta.
model::DiffReport compare_hta(const model::TraceSet& control, const model::TraceSet& test,
                              const CompareOptions& options);

// Inputs, files and GPU names of a side.
void fill_summary(const model::TraceSet& set, model::SideSummary& summary);
// Device filter, name mode and CPU/GPU totals: the same for both modes.
void finish_report(model::DiffReport& report, const CompareOptions& options);
// Throws UsageError when summary.ranks/iterations name one the side lacks.
void check_selection(const std::string& label, const model::SideSummary& summary);
// Mean, median, min, max of step durations.
void summarize_steps(model::StepTimes& steps);

}  // namespace tracediff::analysis::detail
