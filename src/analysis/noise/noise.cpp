#include "analysis/noise/noise.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <utility>

namespace tracediff::analysis {

namespace {

// Exact null distribution of U for samples of sizes (m, n) without ties: the
// coefficients of the Gaussian binomial [m+n choose m]_q, P(U = u) = c_u / C(m+n, m).
// Built as prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), in O(m * m * n). Returns the
// cumulative distribution. Sizes are small (m * n <= k_exact_cells) and few distinct
// per run (every row of a report has the same sizes), so they are cached.
constexpr std::size_t k_exact_cells = 2500;

const std::vector<double>& u_cdf(std::size_t m, std::size_t n) {
  static std::mutex mutex;
  static std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> cache;
  std::lock_guard lock(mutex);
  auto& cdf = cache[{m, n}];
  if (!cdf.empty()) return cdf;
  const std::size_t deg = m * n;
  std::vector<double> c(deg + 1, 0.0);
  c[0] = 1;
  for (std::size_t i = 1; i <= m; ++i) {
    // Multiply by (1 - q^(n+i)), then divide by (1 - q^i): the quotient is exact.
    for (std::size_t k = deg; k >= n + i; --k) c[k] -= c[k - n - i];
    for (std::size_t k = i; k <= deg; ++k) c[k] += c[k - i];
  }
  const double total = std::accumulate(c.begin(), c.end(), 0.0);
  cdf.resize(deg + 1);
  double run = 0;
  for (std::size_t k = 0; k <= deg; ++k) cdf[k] = (run += c[k]) / total;
  return cdf;
}

}  // namespace

double mean(const model::Samples& s) { return s.units() ? s.sum() / static_cast<double>(s.units()) : 0; }
double mean(const std::vector<double>& v) { return mean(model::Samples::dense(v)); }

double median(const model::Samples& s) {
  const std::size_t n = s.units();
  if (n == 0) return 0;
  std::vector<double> v;
  v.reserve(s.values().size());
  for (const auto& [u, x] : s.values()) v.push_back(x);
  // The units without a value are a block of zeros, where 0 sorts: after the negative
  // values. The k-th smallest by selection, not a sort (a side of 8,000 step units has
  // a median per row and call path).
  const std::size_t zeros = n - v.size();
  const auto negative = static_cast<std::size_t>(std::partition(v.begin(), v.end(), [](double x) { return x < 0.0; }) - v.begin());
  const auto at = [&](std::size_t k) {
    if (k >= negative && k < negative + zeros) return 0.0;
    if (k >= negative) k -= zeros;
    const auto first = v.begin() + static_cast<std::ptrdiff_t>(k < negative ? 0 : negative);
    const auto last = k < negative ? v.begin() + static_cast<std::ptrdiff_t>(negative) : v.end();
    std::nth_element(first, v.begin() + static_cast<std::ptrdiff_t>(k), last);
    return v[k];
  };
  return n % 2 ? at(n / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}
double median(std::vector<double> v) { return median(model::Samples::dense(v)); }

double median_without(const std::vector<double>& sorted, std::size_t skip) {
  const std::size_t n = sorted.size() - 1;  // what is left
  if (sorted.size() < 2) return 0;
  const auto at = [&](std::size_t k) { return sorted[k < skip ? k : k + 1]; };
  return n % 2 ? at(n / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}

double stddev(const model::Samples& s) {
  const std::size_t n = s.units();
  if (n < 2) return 0;
  const double m = mean(s);
  double ss = static_cast<double>(n - s.values().size()) * m * m;  // the zeros
  for (const auto& [u, x] : s.values()) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(n - 1));
}
double stddev(const std::vector<double>& v) { return stddev(model::Samples::dense(v)); }

double mann_whitney_min_p(std::size_t na, std::size_t nb) {
  // 2 / C(na + nb, na), without overflow.
  double ways = 1;
  for (std::size_t i = 1; i <= std::min(na, nb); ++i) {
    ways = ways * static_cast<double>(na + nb - std::min(na, nb) + i) / static_cast<double>(i);
    if (ways > 1e12) return 0;
  }
  return std::min(1.0, 2 / ways);
}

double mann_whitney_p(const model::Samples& a, const model::Samples& b) {
  const std::size_t m = a.units(), n = b.units(), total = m + n;
  if (m == 0 || n == 0) return 1;
  // The pooled values with how many of each side hold them; the zeros of both sides
  // (their units without a value) as one entry.
  struct Pooled {
    double value;
    std::size_t of_a, of_b;
  };
  std::vector<Pooled> pooled;
  pooled.reserve(a.values().size() + b.values().size() + 1);
  for (const auto& [u, x] : a.values()) pooled.push_back({x, 1, 0});
  for (const auto& [u, x] : b.values()) pooled.push_back({x, 0, 1});
  const std::size_t zeros_a = m - a.values().size(), zeros_b = n - b.values().size();
  if (zeros_a + zeros_b) pooled.push_back({0.0, zeros_a, zeros_b});
  std::sort(pooled.begin(), pooled.end(), [](const Pooled& x, const Pooled& y) { return x.value < y.value; });
  // Mid-ranks of the pooled samples (1-based), and the tie correction.
  double rank_sum_a = 0, ties = 0;
  std::size_t below = 0;  // values ranked before the current group
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i, in_a = 0, in_group = 0;
    for (; j < pooled.size() && pooled[j].value == pooled[i].value; ++j) {
      in_a += pooled[j].of_a;
      in_group += pooled[j].of_a + pooled[j].of_b;
    }
    const double mid_rank = static_cast<double>(2 * below + in_group + 1) / 2;
    rank_sum_a += mid_rank * static_cast<double>(in_a);
    const auto t = static_cast<double>(in_group);
    ties += t * t * t - t;
    below += in_group;
    i = j;
  }
  const double md = static_cast<double>(m), nd = static_cast<double>(n), N = static_cast<double>(total);
  const double u = rank_sum_a - md * (md + 1) / 2;
  if (ties == 0 && m * n <= k_exact_cells) {
    const auto& cdf = u_cdf(m, n);
    const auto k = static_cast<std::size_t>(std::llround(u));
    const double lower = cdf[k];                          // P(U <= u)
    const double upper = 1 - (k ? cdf[k - 1] : 0.0);      // P(U >= u)
    return std::min(1.0, 2 * std::min(lower, upper));
  }
  const double mu = md * nd / 2;
  const double var = md * nd / 12 * ((N + 1) - ties / (N * (N - 1)));
  if (!(var > 0)) return 1;  // every value the same
  const double z = std::max(0.0, std::fabs(u - mu) - 0.5) / std::sqrt(var);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  return mann_whitney_p(model::Samples::dense(a), model::Samples::dense(b));
}

bool testable(std::size_t control, std::size_t test) {
  return control >= k_min_samples && test >= k_min_samples && mann_whitney_min_p(control, test) < k_alpha;
}

namespace {

std::shared_ptr<const UnitRuns> unit_runs(const std::vector<std::uint32_t>& of_unit) {
  if (of_unit.empty()) return nullptr;
  // Dense run numbers: a run none of whose steps were selected gives no sample.
  std::vector<std::uint32_t> ids(of_unit.begin(), of_unit.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.size() < 2) return nullptr;
  auto out = std::make_shared<UnitRuns>();
  out->runs = static_cast<std::uint32_t>(ids.size());
  out->of_unit.reserve(of_unit.size());
  for (const auto r : of_unit)
    out->of_unit.push_back(static_cast<std::uint32_t>(std::lower_bound(ids.begin(), ids.end(), r) - ids.begin()));
  return out;
}

NoiseRule with_runs(NoiseRule rule, const model::DiffReport& r) {
  rule.control_runs = unit_runs(r.control.unit_runs);
  rule.test_runs = unit_runs(r.test.unit_runs);
  if (!rule.control_runs || !rule.test_runs) rule.control_runs = rule.test_runs = nullptr;
  return rule;
}

// The median of `sorted` (ascending) with `zeros` more values of 0.
double median_with_zeros(const std::vector<double>& sorted, std::size_t zeros) {
  const std::size_t n = sorted.size() + zeros;
  if (n == 0) return 0;
  const auto below = static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), 0.0) - sorted.begin());
  const auto at = [&](std::size_t i) {  // the i-th of the merged multiset
    if (i < below) return sorted[i];
    if (i < below + zeros) return 0.0;
    return sorted[i - zeros];
  };
  return n % 2 ? at(n / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}

bool of_runs(const model::Samples& s, const std::shared_ptr<const UnitRuns>& runs) {
  return runs && s.units() == runs->of_unit.size();
}

}  // namespace

NoiseRule NoiseRule::slice(std::size_t c_first, std::size_t c_last, std::size_t t_first, std::size_t t_last) const {
  NoiseRule r = *this;
  if (!between_runs()) return r;
  const auto part = [](const UnitRuns& all, std::size_t first, std::size_t last) {
    first = std::min(first, all.of_unit.size());
    last = std::min(std::max(first, last), all.of_unit.size());
    return unit_runs({all.of_unit.begin() + static_cast<std::ptrdiff_t>(first),
                      all.of_unit.begin() + static_cast<std::ptrdiff_t>(last)});
  };
  r.control_runs = part(*control_runs, c_first, c_last);
  r.test_runs = part(*test_runs, t_first, t_last);
  if (!r.control_runs || !r.test_runs) r.control_runs = r.test_runs = nullptr;
  return r;
}

bool testable(const model::DiffReport& r) {
  if (!r.between_runs) return testable(r.control.units, r.test.units);
  const auto runs = [](const model::SideSummary& s) {
    return static_cast<std::size_t>(std::count_if(s.runs.begin(), s.runs.end(), [](const auto& x) { return x.units > 0; }));
  };
  return testable(runs(r.control), runs(r.test));
}

NoiseRule noise_rule_for(const CompareOptions& options, const model::DiffReport& report) {
  return with_runs(options.noise_rule(), report);
}

NoiseRule noise_rule_of(const model::DiffReport& r) {
  return with_runs(NoiseRule::of(r.min_change), r);
}

std::vector<double> run_medians(const model::Samples& s, const UnitRuns& runs) {
  std::vector<std::vector<double>> values(runs.runs);
  std::vector<std::size_t> units(runs.runs, 0);
  for (const auto r : runs.of_unit) ++units[r];
  for (const auto& [u, v] : s.values())
    if (u < runs.of_unit.size()) values[runs.of_unit[u]].push_back(v);
  std::vector<double> out(runs.runs);
  for (std::uint32_t r = 0; r < runs.runs; ++r) {
    std::sort(values[r].begin(), values[r].end());
    out[r] = median_with_zeros(values[r], units[r] - values[r].size());
  }
  return out;
}

Judgement judge(const model::Samples& control, const model::Samples& test, const NoiseRule& rule) {
  if (rule.between_runs() && of_runs(control, rule.control_runs) && of_runs(test, rule.test_runs)) {
    NoiseRule plain = rule;
    plain.control_runs = plain.test_runs = nullptr;
    return judge(model::Samples::dense(run_medians(control, *rule.control_runs)),
                 model::Samples::dense(run_medians(test, *rule.test_runs)), plain);
  }
  Judgement j;
  const double mc = median(control), mt = median(test);
  const double d = mt - mc;
  j.control_median = mc;
  j.test_median = mt;
  j.median_diff = d;
  if (!testable(control.units(), test.units())) {
    j.verdict = model::Verdict::untestable;
    return j;
  }
  const double mag = std::fabs(d);
  if (d == 0 || mag < rule.min_change.ns) return j;
  // The relative rule against the base's magnitude: a figure that can be negative (memory's
  // net change) is held to it as much as any other.
  if (mc != 0 && 100.0 * mag / std::fabs(mc) < rule.min_change.pct) return j;
  // A change that the means and the medians disagree on is no clear change.
  const double mean_diff = mean(test) - mean(control);
  if ((mean_diff > 0) != (d > 0) || mean_diff == 0) return j;
  j.p_value = mann_whitney_p(control, test);
  if (!(j.p_value < k_alpha)) return j;
  j.significant = true;
  j.verdict = d > 0 ? model::Verdict::slower : model::Verdict::faster;
  return j;
}

Judgement judge(const std::vector<double>& control, const std::vector<double>& test, const NoiseRule& rule) {
  return judge(model::Samples::dense(control), model::Samples::dense(test), rule);
}

model::Comparison compare_samples(const model::Samples& control, const model::Samples& test, const NoiseRule& rule) {
  model::Comparison v;
  v.control = mean(control);
  v.test = mean(test);
  // Of the base's magnitude: -2 MiB -> -1 MiB is +50 %, the way the Δ went.
  if (v.control != 0) v.pct = 100.0 * (v.test - v.control) / std::fabs(v.control);
  const auto j = judge(control, test, rule);
  v.verdict = j.verdict;
  v.significant = j.significant;
  v.p_value = j.p_value;
  return v;
}

model::Comparison compare_samples(const std::vector<double>& control, const std::vector<double>& test,
                                  const NoiseRule& rule) {
  return compare_samples(model::Samples::dense(control), model::Samples::dense(test), rule);
}

bool is_backlog(const std::vector<double>& unlaunched, const std::vector<double>& steps) {
  if (unlaunched.size() < 3 || steps.size() != unlaunched.size()) return false;
  const double m = median(std::vector<double>(unlaunched.begin() + 1, unlaunched.end()));
  const double step = median(std::vector<double>(steps.begin() + 1, steps.end()));
  return unlaunched[0] > 2 * m && unlaunched[0] - m >= 0.1 * step && unlaunched[0] > 0;
}

bool is_warmup(const std::vector<double>& steps) {
  if (steps.size() < 3) return false;
  const std::vector<double> others(steps.begin() + 1, steps.end());
  const double m = median(others);
  std::vector<double> dev;
  dev.reserve(others.size());
  for (double x : others) dev.push_back(std::fabs(x - m));
  const double spread = 1.4826 * median(dev);  // the MAD, scaled to a normal sigma
  return steps[0] > 1.5 * m && steps[0] - m > 5 * spread;
}

}  // namespace tracediff::analysis
