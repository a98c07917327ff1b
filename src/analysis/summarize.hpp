#pragma once
// Events of one file -> its per-step summary (model/summary.hpp): counts, inclusive
// and self time per (category, name) and step, where each step's time went, and
// which CPU operator launched each piece of GPU work.
#include "analysis/step_marker.hpp"
#include "model/summary.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

// With a marker, host events whose names match it define the steps (--step-marker,
// analysis/steps.hpp); a marker that defines none leaves a warning in the summary.
model::FileSummary summarize_file(const model::TraceFile& file, const StepMarker* marker = nullptr);

// The set's files' summaries (a file not summarised yet is summarised here, with the marker).
model::SetSummary summarize_set(const model::TraceSet& set, const StepMarker* marker = nullptr);
// The same, taking each file's summary instead of copying it (the set is left without).
model::SetSummary summarize_set(model::TraceSet&& set, const StepMarker* marker = nullptr);

// Summaries of disjoint ranks as one set (`tracediff merge`): files, inputs and
// diagnostics together. Throws Fatal when two summaries hold the same rank.
model::SetSummary merge_summaries(std::vector<model::SetSummary> parts);

}  // namespace tracediff::analysis
