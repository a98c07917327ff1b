// Change points of a series of run values: binary segmentation with Pettitt's rank
// test, and a check of the newest run against the segment before it (docs/trend.md).
#include "analysis/trend/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>

namespace tracediff::analysis {

namespace {

// Below this many values Pettitt's approximation is far too conservative (12 runs with
// a clean shift in the middle could never reach p < 0.01): the p-value is then counted
// over permutations of the values, drawn from a fixed seed so that outputs repeat.
constexpr std::size_t k_exact_below = 64;
// 9,999 of them: a clean shift of 5 runs after 10 has p = 0.0068, and with 1,999 the
// estimate's own noise (sd 0.0018) put real H200 runs' 34 % drop in GPU busy above 0.01.
constexpr int k_permutations = 9999;
// Past this many permutations that reach K, p is far above any level: stop counting.
constexpr int k_enough_reached = 250;

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<double> mid_ranks(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> rank(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j < order.size() && v[order[j]] == v[order[i]]) ++j;
    const double r = 0.5 * static_cast<double>(i + 1 + j);  // mean of ranks i+1..j
    for (std::size_t k = i; k < j; ++k) rank[order[k]] = r;
    i = j;
  }
  return rank;
}

// K = max_t |U_t| and its t (the count of values before the split).
std::pair<double, std::size_t> pettitt_k(const std::vector<double>& ranks) {
  const double n = static_cast<double>(ranks.size());
  double sum = 0, best = -1;
  std::size_t at = 0;
  for (std::size_t t = 1; t < ranks.size(); ++t) {
    sum += ranks[t - 1];
    const double u = std::fabs(2 * sum - static_cast<double>(t) * (n + 1));
    if (u > best + 1e-9) best = u, at = t;
  }
  return {best, at};
}

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The share of permutations of the ranks whose K reaches the observed one (with the
// observed ordering counted, so never 0).
double permutation_p(std::vector<double> ranks, double k) {
  std::uint64_t seed = ranks.size();
  int reach = 1;
  for (int i = 0; i < k_permutations; ++i) {
    for (std::size_t j = ranks.size() - 1; j > 0; --j) std::swap(ranks[j], ranks[splitmix(seed) % (j + 1)]);
    if (pettitt_k(ranks).first >= k - 1e-9 && ++reach > k_enough_reached) return static_cast<double>(reach) / (i + 2);
  }
  return static_cast<double>(reach) / (k_permutations + 1);
}

// Where the split goes, once Pettitt's test found one: ranks cannot place it when the
// value next to the change lies between the two levels (both splits separate the ranks
// as well), so among the splits whose |U_t| is within 80 % of the largest, the one that
// leaves the least squared deviation from the two parts' means.
std::size_t locate(const std::vector<double>& v) {
  const auto ranks = mid_ranks(v);
  const double n = static_cast<double>(v.size());
  std::vector<double> u(v.size(), 0.0);
  double sum = 0, k = 0;
  for (std::size_t t = 1; t < v.size(); ++t) {
    sum += ranks[t - 1];
    u[t] = std::fabs(2 * sum - static_cast<double>(t) * (n + 1));
    k = std::max(k, u[t]);
  }
  double total = 0, total_sq = 0;
  for (const double x : v) total += x, total_sq += x * x;
  double left = 0, left_sq = 0, best = 0;
  std::size_t at = 0;
  for (std::size_t t = 1; t < v.size(); ++t) {
    left += v[t - 1];
    left_sq += v[t - 1] * v[t - 1];
    if (u[t] < 0.8 * k) continue;
    const double nl = static_cast<double>(t), nr = n - nl;
    const double right = total - left, right_sq = total_sq - left_sq;
    const double sse = (left_sq - left * left / nl) + (right_sq - right * right / nr);
    if (at == 0 || sse < best - 1e-9 * std::fabs(best)) best = sse, at = t;
  }
  return at;
}

// The smallest step between distinct values of a part (0 when they are all equal):
// durations in whole microseconds make run medians multiples of 0.5 µs, and a change of
// one or two such steps is the rounding's, not the code's.
double quantum(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  double q = 0;
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i] > v[i - 1] && (q == 0 || v[i] - v[i - 1] < q)) q = v[i] - v[i - 1];
  return q;
}

bool beyond_rule(double before, double after, const NoiseRule& rule) {
  const double d = std::fabs(after - before);
  if (d == 0 || d < rule.min_change.ns) return false;
  return before == 0 || 100.0 * d / std::fabs(before) >= rule.min_change.pct;
}

}  // namespace

std::pair<std::size_t, double> pettitt(const std::vector<double>& values) {
  const std::size_t n = values.size();
  if (n < 2) return {0, 1.0};
  const auto ranks = mid_ranks(values);
  const auto [k, at] = pettitt_k(ranks);
  if (k <= 0) return {at, 1.0};
  if (n < k_exact_below) return {at, permutation_p(ranks, k)};
  const double nn = static_cast<double>(n);
  return {at, std::min(1.0, 2.0 * std::exp(-6.0 * k * k / (nn * nn * nn + nn * nn)))};
}

std::vector<ChangePoint> change_points(const std::vector<double>& all, const std::vector<double>& spread,
                                       const NoiseRule& rule, double alpha, double newest_sds,
                                       std::size_t newest_min_runs) {
  std::vector<double> v;
  std::vector<std::size_t> index;  // v's values' positions in `all`
  for (std::size_t i = 0; i < all.size(); ++i)
    if (!std::isnan(all[i])) v.push_back(all[i]), index.push_back(i);
  std::vector<ChangePoint> out;
  const std::function<void(std::size_t, std::size_t)> split = [&](std::size_t lo, std::size_t hi) {
    if (hi - lo < 4) return;  // two runs a side at least
    const std::vector<double> part(v.begin() + static_cast<std::ptrdiff_t>(lo), v.begin() + static_cast<std::ptrdiff_t>(hi));
    const auto [t0, p] = pettitt(part);
    if (p >= alpha || t0 == 0) return;
    const std::size_t t = locate(part);
    const std::size_t at = lo + t;
    const double before = median_of({v.begin() + static_cast<std::ptrdiff_t>(lo), v.begin() + static_cast<std::ptrdiff_t>(at)});
    const double after = median_of({v.begin() + static_cast<std::ptrdiff_t>(at), v.begin() + static_cast<std::ptrdiff_t>(hi)});
    if (!beyond_rule(before, after, rule)) return;
    const std::vector<double> left(v.begin() + static_cast<std::ptrdiff_t>(lo), v.begin() + static_cast<std::ptrdiff_t>(at));
    const std::vector<double> right(v.begin() + static_cast<std::ptrdiff_t>(at), v.begin() + static_cast<std::ptrdiff_t>(hi));
    const double q = std::min(quantum(left) > 0 ? quantum(left) : INFINITY, quantum(right) > 0 ? quantum(right) : INFINITY);
    if (std::isfinite(q) && std::fabs(after - before) <= 2 * q) return;
    out.push_back({at, before, after, p, false});
    split(lo, at);
    split(at, hi);
  };
  split(0, v.size());
  std::sort(out.begin(), out.end(), [](const ChangePoint& a, const ChangePoint& b) { return a.at < b.at; });

  // The newest run against the segment it would belong to.
  if (v.size() >= 2 && (out.empty() || out.back().at < v.size() - 1)) {
    const std::size_t last = v.size() - 1;
    const std::size_t from = out.empty() ? 0 : out.back().at;
    if (last - from >= newest_min_runs) {
      const std::vector<double> seg(v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(last));
      const double med = median_of(seg);
      std::vector<double> dev;
      for (const double x : seg) dev.push_back(std::fabs(x - med));
      // Where the run values all agree exactly (durations in whole microseconds), the typical
      // standard error of a run's median (from its own steps) stands in: a step within one
      // run's noise must not be a change.
      double sd = 1.4826 * median_of(dev);
      const bool agree = sd == 0;  // most runs gave the very same value
      // MAD 0 with some runs elsewhere (a figure mostly 0, now and then not): the mean
      // absolute deviation (scaled to an SD for normal data) says how far runs stray.
      if (sd == 0) sd = 1.2533 * std::accumulate(dev.begin(), dev.end(), 0.0) / static_cast<double>(dev.size());
      if (sd == 0) {
        std::vector<double> ses;
        for (std::size_t i = from; i < last && index[i] < spread.size(); ++i) ses.push_back(spread[index[i]]);
        sd = median_of(ses);
      }
      const double d = std::fabs(v[last] - med);
      // Where the runs gave the very same value (MAD 0), the newest run's own noise must not
      // explain the step either: more than 2 standard errors of its median (from its steps).
      const double own_se = index[last] < spread.size() ? spread[index[last]] : 0.0;
      // The newest run must be the first beyond: a run before it beyond too, the same way,
      // is a change that began earlier (too few runs after it yet to tell), not at the newest.
      const double prev = v[last - 1] - med;
      const bool began_earlier = (prev > 0) == (v[last] > med) && std::fabs(prev) > newest_sds * sd &&
                                 beyond_rule(med, v[last - 1], rule);
      if (!began_earlier && beyond_rule(med, v[last], rule) && d > newest_sds * sd &&
          d > 2 * quantum(seg) && (!agree || d > 2 * own_se)) {
        const double p = sd > 0 ? std::erfc(d / sd / std::sqrt(2.0)) : 0.0;
        if (p < alpha) out.push_back({last, med, v[last], p, true});
      }
    }
  }
  for (auto& c : out) c.at = index[c.at];
  return out;
}

}  // namespace tracediff::analysis
