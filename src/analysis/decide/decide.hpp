#pragma once
// What a finished comparison says, decided once for every writer: the headline and
// the step breakdown with their verdicts, ranks side by side, the top regressions and
// improvements, the labels names are shown by, where the sides differ, and the notes.
// Internal to analysis/.
#include <cstdint>

#include "analysis/compare_options.hpp"
#include "model/report.hpp"

namespace tracediff::analysis::detail {

// Default mode: everything above, from the rows, launchers and step details.
void decide(model::DiffReport& report, const CompareOptions& options);

// --hta-compat: HTA's totals as the headline, verdicts by the sign of the difference
// (HTA has no noise test), top lists by raw difference.
void decide_hta(model::DiffReport& report, const CompareOptions& options);

}  // namespace tracediff::analysis::detail
