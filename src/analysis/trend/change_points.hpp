#pragma once
// Where a series of run values changed (docs/trend.md "The method"):
//   - binary segmentation with Pettitt's rank test: in a segment of n runs, with R_i the
//     mid-ranks of its values, U_t = 2 sum_{i<=t} R_i - t (n + 1), K = max |U_t|,
//     p ~= 2 exp(-6 K^2 / (n^3 + n^2)) (below 64 runs, counted over permutations); the split
//     (placed by least squares among the t with |U_t| >= 0.8 K) is kept when p < alpha and
//     the medians of the two parts differ by the noise rule's minimum (--min-change) and by
//     more than two quanta (the smallest step between distinct values within a part:
//     durations in whole microseconds), and both parts are searched again;
//   - the newest run, which a rank test cannot single out: it is a change when it lies
//     beyond the median of the runs since the last change (`newest_min_runs` at least) by
//     the noise rule's minimum, by more than `newest_sds` robust SDs (1.4826 MAD of those
//     runs' values; where 0, 1.2533 times their mean absolute deviation; where 0 too, the
//     median standard error of their medians) and by more than two quanta (where the MAD is
//     0, by more than 2 standard errors of its own median too), the run before it not
//     beyond the same way (else the change began earlier); its confidence from the normal
//     tail.
#include <cstddef>
#include <vector>

#include "analysis/compare_options.hpp"
#include "model/trend_report.hpp"

namespace tracediff::analysis {

struct ChangePoint {
  std::size_t at = 0;           // the first index after the change
  double before = 0, after = 0; // the medians of the runs before and after (within their segments)
  double p = 1;
  bool newest = false;
};

// Pettitt's test on values: the best split (first index after it, 1..n-1) and its p-value;
// {0, 1} below 2 values.
std::pair<std::size_t, double> pettitt(const std::vector<double>& values);

// The change points of one series of run values (NaN: a run without a value, skipped),
// ordered by index. SE: each run's standard error of its median (may be empty), for the
// newest-run check.
std::vector<ChangePoint> change_points(const std::vector<double>& values, const std::vector<double>& se,
                                       const NoiseRule& rule, double alpha, double newest_sds,
                                       std::size_t newest_min_runs);

}  // namespace tracediff::analysis
