#pragma once
// "Is it real?": one figure's per-step samples on each side, judged by a method that
// warm-up steps and small samples do not fool (docs/is-it-real.md):
//   - fewer than 3 samples on a side, or too few for the rank test to ever reach
//     its level: not testable;
//   - the change is the difference of the medians; it must reach --min-change and
//     agree in sign with the difference of the means;
//   - Mann-Whitney U (two-sided, exact without ties for small samples, normal with
//     tie correction otherwise) must give p < k_alpha.
#include <cstddef>
#include <vector>

#include "analysis/compare_options.hpp"
#include "model/report.hpp"

namespace tracediff::analysis {

constexpr double k_alpha = 0.01;
constexpr std::size_t k_min_samples = 3;

// The rule a finished report was decided by (DiffReport::min_change_*).
NoiseRule noise_rule_of(const model::DiffReport& r);

struct Judgement {
  model::Verdict verdict = model::Verdict::same;
  bool significant = false;
  double median_diff = 0;  // median(test) - median(control), also when not testable
  double control_median = 0, test_median = 0;
  double p_value = 1;      // 1 when the test did not run
};

// The samples of a row are sparse (model::Samples, settled: units without a value are
// 0); the step figures' are dense vectors. Each function below costs O(k log k) in the
// values stored, whatever the number of units.
double mean(const std::vector<double>& v);
double mean(const model::Samples& s);
double median(std::vector<double> v);
double median(const model::Samples& s);
double stddev(const std::vector<double>& v);  // sample standard deviation; 0 below 2 values
// The median of `sorted` (ascending) without its value at position `skip`, in O(1):
// each step against the others, for every step, without a sort per step.
double median_without(const std::vector<double>& sorted, std::size_t skip);
double stddev(const model::Samples& s);

// Two-sided p-value of the Mann-Whitney U test of a against b.
double mann_whitney_p(const model::Samples& a, const model::Samples& b);
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);
// The smallest p-value the test can give for samples of these sizes (all of one
// side above all of the other, no ties).
double mann_whitney_min_p(std::size_t na, std::size_t nb);

// The rule of `options`, judging between runs where both sides of `report` have several
// (their SideSummary::unit_runs).
NoiseRule noise_rule_for(const CompareOptions& options, const model::DiffReport& report);
// The per-run medians of per-unit samples: one sample per run (a run's units without a
// value count as 0), in run order.
std::vector<double> run_medians(const model::Samples& s, const UnitRuns& runs);

// Whether samples of these sizes can be judged at all.
bool testable(std::size_t control, std::size_t test);
// Whether the report's figures can be judged: its runs between runs, else its step units.
bool testable(const model::DiffReport& r);

// control, test: the figure's value in each step unit of each side. Between runs
// (rule.between_runs(), samples of the runs' sizes), the per-run medians are judged.
Judgement judge(const model::Samples& control, const model::Samples& test, const NoiseRule& rule);
Judgement judge(const std::vector<double>& control, const std::vector<double>& test, const NoiseRule& rule);

// A figure per step from its per-unit samples on each side: the means, their relative
// change, and the judgement.
model::Comparison compare_samples(const model::Samples& control, const model::Samples& test, const NoiseRule& rule);
model::Comparison compare_samples(const std::vector<double>& control, const std::vector<double>& test,
                                  const NoiseRule& rule);

// A first step far outside the others (more than 1.5x their median, and more than 5
// scaled median absolute deviations above it): the warm-up of a run. `steps` are a
// file's step times in step order; needs 3 steps or more.
bool is_warmup(const std::vector<double>& steps);
// A first step that carries GPU work without a recorded launch the others do not: work
// queued before the profiler started, landed where its GPU time falls. `unlaunched` per
// step in step order, `steps` their times; true when the first step's exceeds twice the
// others' median by a tenth of their median step or more. Needs 3 steps or more.
bool is_backlog(const std::vector<double>& unlaunched, const std::vector<double>& steps);

}  // namespace tracediff::analysis
