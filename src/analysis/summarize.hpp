#pragma once
// Events of one file -> its per-step summary (model/summary.hpp): counts, inclusive
// and self time per (category, name) and step, where each step's time went, and
// which CPU operator launched each piece of GPU work.
#include "model/summary.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

model::FileSummary summarize_file(const model::TraceFile& file);

// The set's files' summaries (a file not summarised yet is summarised here).
model::SetSummary summarize_set(const model::TraceSet& set);
// The same, taking each file's summary instead of copying it (the set is left without).
model::SetSummary summarize_set(model::TraceSet&& set);

// Summaries of disjoint ranks as one set (`tracediff merge`): files, inputs and
// diagnostics together. Throws Fatal when two summaries hold the same rank.
model::SetSummary merge_summaries(std::vector<model::SetSummary> parts);

}  // namespace tracediff::analysis
