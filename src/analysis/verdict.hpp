#pragma once
// The one-line verdict that opens a PR comment: what a reviewer needs before
// anything else, decided here so that every view that shows it says the same.
#include <string>

#include "model/report.hpp"

namespace tracediff::analysis {

// "❌ 3 significant regressions: step time +60.1% (77.5 ms → 124 ms)",
// "✅ No significant change in 431 operators and kernels", "❌ Gate failed: ...".
// Reads the rows' verdicts, the headline figures and the gate (evaluate it first).
// Plain text (UTF-8), no trace string in it: safe in any view as it is.
std::string verdict_line(const model::DiffReport& report);

}  // namespace tracediff::analysis
