#pragma once
// The one-line verdict that opens every view (the PR comment, the terminal, the HTML
// report, the JSON): what a reviewer needs before anything else, decided here so that
// every view says the same.
#include <string>
#include <vector>

#include "analysis/gate/gate.hpp"
#include "model/report.hpp"

namespace tracediff::analysis {

// The line and its mark: the step time first (what the user asked), then what moved
// significantly, counted as the top lists count it (DiffReport::verdict_counts).
//   "❌ Step time +60.1% (77.5 ms → 124 ms), slower; 3 significant regressions, 1 improvement"
//   "⚪ Step time -17.1% (45.1 ms → 37.4 ms), within noise; 11 significant regressions, 4 improvements"
//   "❌ Gate failed (1 of 2 conditions): step time ..."
// ❌ only when a --fail-on condition failed or, without a gate, when the step time is
// significantly slower; ✅ when it is significantly faster or every condition passed;
// ⚠️ when a condition could not be evaluated; ⚪ otherwise. Reads the headline, the
// counts and the gate (evaluate it first). Plain text (UTF-8), no trace string in it.
struct Verdict {
  model::Mark mark = model::Mark::neutral;
  std::string line;  // the mark, a space, then text
  std::string text;  // the line without its mark (views that draw the mark themselves)
};
Verdict decide_verdict(const model::DiffReport& report);

// decide_verdict(report).line.
std::string verdict_line(const model::DiffReport& report);

// The comparison's last step, the same for the CLI and Python: the gate evaluated
// (report.gate, gate_heading), then the verdict (verdict_line, mark, text).
void judge(model::DiffReport& report, const std::vector<GateCondition>& fail_on);

}  // namespace tracediff::analysis
