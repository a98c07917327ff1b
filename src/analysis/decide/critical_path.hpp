#pragma once
// What bounded the step, before and after (docs/critical-path.md): each side's critical
// path judged per bound type, the rows on it, the what-ifs, and the bottom line's
// reading when the bound moved. Runs after why the step moved and the labels.
#include "analysis/compare_options.hpp"
#include "model/report.hpp"

namespace tracediff::analysis::detail {

void decide_critical_path(model::DiffReport& report, const NoiseRule& rule, const CompareOptions& options);

}  // namespace tracediff::analysis::detail
