#pragma once
// The entry points of a comparison, compare_traces and compare_summaries: two sides in, one
// DiffReport out, compared (compare/) and decided (decide/).
#include "analysis/compare_options.hpp"
#include "analysis/summarize/summarize.hpp"
#include "model/report.hpp"
#include "model/summary.hpp"
#include "model/trace.hpp"

namespace tracediff::analysis {

// One side's summarising options as the command line makes them: SUMMARIZE's launcher
// level, the comparison's --by-shape and the side's own step marker.
SummarizeOptions side_summarize_options(const SummarizeOptions& summarize, const CompareOptions& options,
                                        const Selection& side);

// The default mode summarises each side (side_summarize_options) and compares the
// summaries, the path the CLI takes, so both give the same report; the traces must have
// been read with ReadOptions::by_shape when options.by_shape. Throws UsageError for a
// rank or step that the side does not have, Fatal when a selection leaves nothing to
// compare in --hta-compat's terms (HTA's own errors).
model::DiffReport compare_traces(const model::TraceSet& control, const model::TraceSet& test,
                                 const CompareOptions& options, const SummarizeOptions& summarize = {});

// The default mode on summaries (traces already summarised, or loaded from
// `tracediff summarize` files): the same report as compare_traces.
model::DiffReport compare_summaries(const model::SetSummary& control, const model::SetSummary& test,
                                    const CompareOptions& options);

}  // namespace tracediff::analysis
