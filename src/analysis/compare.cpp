// The entry points, at the top of analysis/: each runs a comparison (compare/) and then
// decides what it says (decide/).
#include "analysis/compare.hpp"

#include "analysis/compare/modes.hpp"
#include "analysis/decide/decide.hpp"
#include "analysis/summarize/summarize.hpp"

namespace tracediff::analysis {

SummarizeOptions side_summarize_options(const SummarizeOptions& summarize, const CompareOptions& options,
                                        const Selection& side) {
  auto s = summarize;
  s.by_shape = options.by_shape;
  s.marker = side.step_marker.get();
  return s;
}

model::DiffReport compare_traces(const model::TraceSet& control, const model::TraceSet& test,
                                 const CompareOptions& options, const SummarizeOptions& summarize) {
  if (!options.hta_compat)
    return compare_summaries(summarize_set(control, side_summarize_options(summarize, options, options.control)),
                             summarize_set(test, side_summarize_options(summarize, options, options.test)), options);
  auto report = detail::compare_hta(control, test, options);
  detail::decide_hta(report, options);
  return report;
}

model::DiffReport compare_summaries(const model::SetSummary& control, const model::SetSummary& test,
                                    const CompareOptions& options) {
  auto report = detail::compare_default(control, test, options);
  detail::decide(report, options);
  return report;
}

}  // namespace tracediff::analysis
