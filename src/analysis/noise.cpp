#include "analysis/noise.hpp"

#include <cmath>

namespace tracediff::analysis {

double mean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double stddev(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean(v);
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

Judgement judge(const std::vector<double>& control, const std::vector<double>& test, const NoiseRule& rule) {
  Judgement j;
  const double mc = mean(control), mt = mean(test);
  const double diff = mt - mc;
  if (diff == 0) return j;
  const double mag = std::abs(diff);
  if (mag < rule.min_change_ns) return j;
  if (mc > 0 && 100.0 * mag / mc < rule.min_change_pct) return j;
  // Welch's standard error of the difference of means. With fewer than two units on
  // a side there is no spread to measure: the thresholds alone decide.
  if (control.size() >= 2 && test.size() >= 2) {
    const double sc = stddev(control), st = stddev(test);
    const double se = std::sqrt(sc * sc / static_cast<double>(control.size()) +
                                st * st / static_cast<double>(test.size()));
    if (mag <= rule.z * se) return j;
  }
  j.significant = true;
  j.verdict = diff > 0 ? model::Verdict::slower : model::Verdict::faster;
  return j;
}

}  // namespace tracediff::analysis
