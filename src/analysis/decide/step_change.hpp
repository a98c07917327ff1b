#pragma once
// Why the step moved: the step split into the parts of each GPU's timeline, their
// waterfall, what moved each part, the bottom line. Runs after the top lists, the
// families and the labels.
#include "analysis/compare_options.hpp"
#include "model/report.hpp"

namespace tracediff::analysis::detail {

void decide_step_change(model::DiffReport& report, const NoiseRule& rule);

}  // namespace tracediff::analysis::detail
