#pragma once
// "Is it real?": a row's per-step change against the step-to-step spread of its own
// per-step totals on both sides (README, "Is it real?").
#include <vector>

#include "model/report.hpp"

namespace tracediff::analysis {

struct NoiseRule {
  double min_change_pct = 5.0;  // smaller relative changes are "same"
  double min_change_ns = 0.0;   // smaller absolute changes (per step) are "same"
  double z = 3.0;               // the change must exceed z standard errors
};

struct Judgement {
  bool significant = false;
  model::Verdict verdict = model::Verdict::same;
};

double mean(const std::vector<double>& v);
double stddev(const std::vector<double>& v);  // sample standard deviation; 0 below 2 values

// control, test: per-unit totals (ns) of one row on each side.
Judgement judge(const std::vector<double>& control, const std::vector<double>& test, const NoiseRule& rule);

}  // namespace tracediff::analysis
