#pragma once
// Memory (docs/reading-the-report.md "Memory"): each device's figures per step, judged
// by the noise rule, the headline's peak memory (GPU), or the note that says how to
// record memory when a side has none.
#include "analysis/options.hpp"
#include "model/report.hpp"

namespace tracediff::analysis::detail {

void decide_memory(model::DiffReport& report, const NoiseRule& rule);

}  // namespace tracediff::analysis::detail
