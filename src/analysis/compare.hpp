#pragma once
// compare_traces and ops_diff: two TraceSets in, one DiffReport out.
#include "analysis/options.hpp"
#include "model/report.hpp"
#include "model/summary.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

// Throws UsageError for a rank or step that the side does not have, Fatal when a
// selection leaves nothing to compare in --hta-compat's terms (HTA's own errors).
model::DiffReport compare_traces(const model::TraceSet& control, const model::TraceSet& test,
                                 const CompareOptions& options);

// The default mode on summaries (traces already summarised, or loaded from
// `tracediff summarize` files): the same report as compare_traces.
model::DiffReport compare_summaries(const model::SetSummary& control, const model::SetSummary& test,
                                    const CompareOptions& options);

}  // namespace tracediff::analysis
