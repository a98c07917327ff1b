#include "analysis/compare.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

#include "analysis/decide/decide.hpp"
#include "analysis/compare/modes.hpp"
#include "analysis/names/short_name.hpp"
#include "analysis/summarize/steps.hpp"
#include "analysis/summarize/summarize.hpp"
#include "util/errors.hpp"
#include "util/saturating.hpp"

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
  for (auto& row : report.rows) row.per_step_basis = false;
  for (const auto* set : {&control, &test}) {
    const auto& side = set == &control ? report.control.label : report.test.label;
    report.diagnostics.merge(set->diagnostics, side);
    for (const auto& f : set->files) report.diagnostics.merge(f.diagnostics, side);
  }
  detail::finish_report(report, options);
  detail::decide_hta(report, options);
  return report;
}

}  // namespace tracediff::analysis
