#pragma once
// --min-change: the noise rule's thresholds, in one type and one unit from the command
// line to the end. cli/options converts what the user wrote (5%, 2us, 0.5ms) once;
// the comparison, the report, the gate, the verdict and trend carry this, and the
// writers print it (the JSON's µs included) without converting it back and forth.

namespace tracediff::model {

// --min-change's default: a per-step change under 5 % of the control's median is
// "same", however small its p-value (the noise rule, analysis/compare_options.hpp).
inline constexpr double k_default_min_change_pct = 5.0;

struct MinChange {
  double pct = k_default_min_change_pct;  // smaller relative changes (of the median) are "same"
  double ns = 0.0;                        // smaller absolute changes (of a duration) are "same"
  double us() const { return ns / 1000.0; }
};

}  // namespace tracediff::model
