// The noise test on sparse samples (model::Samples) gives what it gives on the same
// values written out densely, and known values.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "analysis/noise/noise.hpp"

using namespace tracediff;
using namespace tracediff::analysis;

namespace {

// The same values, sparsely: only the non-zero units, added out of order and split
// in two to exercise settle().
model::Samples sparse(const std::vector<double>& v) {
  model::Samples s(v.size());
  for (std::size_t u = v.size(); u-- > 0;)
    if (v[u] != 0) {
      s.add(static_cast<std::uint32_t>(u), v[u] / 4);
      s.add(static_cast<std::uint32_t>(u), 3 * v[u] / 4);
    }
  s.settle();
  return s;
}

// References written out plainly, independent of noise.cpp: the median of the sorted
// values, and Mann-Whitney's two-sided p from ranks counted one by one (exact by
// enumerating every split of ranks 1..N when there are no ties and N <= 16, else
// the normal approximation with tie and continuity corrections).
double naive_median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double naive_p(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> all(a);
  all.insert(all.end(), b.begin(), b.end());
  const auto rank = [&](double x) {
    double less = 0, equal = 0;
    for (double y : all) less += y < x, equal += y == x;
    return less + (equal + 1) / 2;
  };
  double r = 0, ties = 0;
  for (double x : a) r += rank(x);
  std::vector<double> seen;
  for (double x : all) {
    if (std::find(seen.begin(), seen.end(), x) != seen.end()) continue;
    seen.push_back(x);
    const double t = static_cast<double>(std::count(all.begin(), all.end(), x));
    ties += t * t * t - t;
  }
  const double m = static_cast<double>(a.size()), n = static_cast<double>(b.size()), N = m + n;
  const double u = r - m * (m + 1) / 2;
  if (ties == 0 && all.size() <= 16) {
    double below = 0, above = 0, total = 0;
    for (unsigned mask = 0; mask < (1u << all.size()); ++mask) {
      if (static_cast<std::size_t>(__builtin_popcount(mask)) != a.size()) continue;
      double rs = 0;
      for (std::size_t k = 0; k < all.size(); ++k)
        if (mask >> k & 1) rs += static_cast<double>(k + 1);
      const double uu = rs - m * (m + 1) / 2;
      total += 1, below += uu <= u, above += uu >= u;
    }
    return std::min(1.0, 2 * std::min(below, above) / total);
  }
  const double var = m * n / 12 * ((N + 1) - ties / (N * (N - 1)));
  if (!(var > 0)) return 1;
  const double z = std::max(0.0, std::fabs(u - m * n / 2) - 0.5) / std::sqrt(var);
  return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(noise)

BOOST_AUTO_TEST_CASE(sparse_samples_agree_with_plain_references) {
  // Ties, explicit zeros and units without a value, small (exact) and large (normal).
  std::mt19937 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t nc = 3 + rng() % (trial % 2 ? 6 : 30), nt = 3 + rng() % (trial % 2 ? 6 : 30);
    std::vector<double> c(nc), t(nt);
    for (auto* v : {&c, &t})
      for (auto& x : *v) x = rng() % 3 == 0 ? 0.0 : static_cast<double>(rng() % (trial % 3 ? 50 : 5));
    BOOST_TEST(median(sparse(c)) == naive_median(c));
    BOOST_TEST(mann_whitney_p(sparse(c), sparse(t)) == naive_p(c, t), boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(known_values) {
  // All of one side below the other, 3 against 3: the exact two-sided p is 2/20.
  BOOST_TEST(mann_whitney_p(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6}) == 0.1,
             boost::test_tools::tolerance(1e-12));
  model::Samples s(5);
  s.add(3, 7.0);
  s.settle();
  BOOST_TEST(median(s) == 0.0);
  BOOST_TEST(mean(s) == 1.4, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(s.to_dense() == (std::vector<double>{0, 0, 0, 7, 0}));
  model::Samples t(4);
  for (std::uint32_t u = 0; u < 4; ++u) t.add(u, 2.0 + u);
  t.settle();
  BOOST_TEST(median(t) == 3.5);
  BOOST_TEST(stddev(t) == std::sqrt(5.0 / 3), boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(sparse_equals_dense) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(1, 100);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t nc = 3 + rng() % 40, nt = 3 + rng() % 40;
    const double zeros = (rng() % 10) / 10.0;  // share of units without the name
    std::vector<double> c(nc), t(nt);
    for (auto* v : {&c, &t})
      for (auto& x : *v) x = std::uniform_real_distribution<double>(0, 1)(rng) < zeros ? 0 : std::round(value(rng));
    const auto sc = sparse(c), st = sparse(t);
    BOOST_TEST(median(sc) == median(c));
    BOOST_TEST(mean(sc) == mean(c), boost::test_tools::tolerance(1e-12));
    BOOST_TEST(stddev(sc) == stddev(c), boost::test_tools::tolerance(1e-9));
    BOOST_TEST(mann_whitney_p(sc, st) == mann_whitney_p(c, t), boost::test_tools::tolerance(1e-12));
    const NoiseRule rule = NoiseRule::of({5.0, 0.0});
    const auto js = judge(sc, st, rule), jd = judge(c, t, rule);
    BOOST_TEST((js.verdict == jd.verdict));
    BOOST_TEST(js.significant == jd.significant);
  }
}

// A figure listed in most units is added up in place (8 bytes and a bit a unit): its
// values, their order and every statistic are those of the sparse sums, to the bit, for
// values that come in any order, a unit several times, and through add_all.
BOOST_AUTO_TEST_CASE(samples_added_up_in_place_read_as_the_sparse_ones) {
  std::mt19937_64 rng(44);
  for (const std::size_t units : {1u, 7u, 64u, 1000u, 8000u}) {
    for (const double share : {0.05, 0.5, 1.0, 3.0}) {  // values per unit: sparse to dense, duplicates
      const auto n = static_cast<std::size_t>(share * static_cast<double>(units)) + 1;
      std::vector<std::pair<std::uint32_t, double>> adds;
      for (std::size_t i = 0; i < n; ++i)
        adds.push_back({static_cast<std::uint32_t>(rng() % units), static_cast<double>(rng() % 1'000'000) * 1.25 - 1000});
      // The reference: each unit's values summed in the order they came.
      std::vector<double> sum(units, 0.0);
      std::vector<bool> listed(units, false);
      for (const auto& [u, v] : adds) sum[u] += v, listed[u] = true;
      model::Samples s(units), half(units), other(units);
      for (const auto& [u, v] : adds) s.add(u, v);
      for (std::size_t i = 0; i < adds.size(); ++i) (i < adds.size() / 2 ? half : other).add(adds[i].first, adds[i].second);
      s.settle();
      other.settle();
      half.add_all(other);
      half.settle();
      for (const auto* t : {&s, &half}) {
        std::vector<std::pair<std::uint32_t, double>> got, want;
        for (const auto& [u, v] : t->values()) got.push_back({u, v});
        for (std::uint32_t u = 0; u < units; ++u)
          if (listed[u]) want.push_back({u, sum[u]});
        BOOST_TEST((got.size() == want.size()));
        BOOST_TEST((got == want || t == &half));  // add_all sums the second half apart: same units
        BOOST_TEST(t->values().size() == want.size());
      }
      BOOST_TEST(median(s) == median(model::Samples::dense(s.to_dense())));
      BOOST_TEST(s.to_dense() == sum);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_name_in_one_step_of_many_costs_one_value) {
  // 10,000 units, a value in one: what is stored, and what the test decides.
  model::Samples c(10'000), t(10'000);
  c.add(17, 5.0);
  t.add(9'000, 5.0);
  c.settle();
  t.settle();
  BOOST_TEST(c.values().size() == 1u);
  BOOST_TEST(median(c) == 0.0);
  BOOST_TEST((judge(c, t, NoiseRule{}).verdict == model::Verdict::same));
}

// Several runs a side (docs/is-it-real.md "Several runs"): A/A rows whose runs each carry
// their own offset (an autotuner's pick, clocks) look real when steps are the samples,
// and are noise between runs. 2,000 rows, 5 runs a side of 6 steps: each run of each
// row is off by N(0, 8 %), each step by N(0, 1 %).
namespace {

struct Sides {
  model::Samples control, test;
};

Sides runs_of(std::mt19937_64& rng, double shift, std::size_t runs, std::size_t steps) {
  std::normal_distribution<double> run_offset(0.0, 0.08), step_noise(0.0, 0.01);
  Sides s{model::Samples(runs * steps), model::Samples(runs * steps)};
  for (auto* side : {&s.control, &s.test}) {
    const double base = side == &s.test ? 1000.0 * (1 + shift) : 1000.0;
    // Units in (rank, step) order interleave the runs: unit u is run u % runs.
    std::vector<double> offset(runs);
    for (auto& o : offset) o = run_offset(rng);
    for (std::uint32_t u = 0; u < runs * steps; ++u) side->add(u, base * (1 + offset[u % runs]) * (1 + step_noise(rng)));
    side->settle();
  }
  return s;
}

NoiseRule between(std::size_t runs, std::size_t steps) {
  auto g = std::make_shared<UnitRuns>();
  g->runs = static_cast<std::uint32_t>(runs);
  for (std::size_t u = 0; u < runs * steps; ++u) g->of_unit.push_back(static_cast<std::uint32_t>(u % runs));
  NoiseRule rule;
  rule.control_runs = rule.test_runs = g;
  return rule;
}

}  // namespace

BOOST_AUTO_TEST_CASE(between_runs_a_a_rows_flag_at_most_one_percent) {
  std::mt19937_64 rng(30);
  constexpr std::size_t k_rows = 2000, k_runs = 5, k_steps = 6;
  const NoiseRule within = NoiseRule::of({5.0, 0.0}), runs = between(k_runs, k_steps);
  std::size_t flagged_within = 0, flagged_between = 0;
  for (std::size_t i = 0; i < k_rows; ++i) {
    const auto s = runs_of(rng, 0.0, k_runs, k_steps);
    flagged_within += judge(s.control, s.test, within).significant;
    flagged_between += judge(s.control, s.test, runs).significant;
  }
  BOOST_TEST_MESSAGE("A/A, 2,000 rows: steps as samples " << flagged_within << ", between runs " << flagged_between);
  // Steps as samples: each run's offset is read as a change (about half the rows).
  BOOST_TEST(flagged_within > k_rows / 5);
  BOOST_TEST(flagged_between <= k_rows / 100);
}

BOOST_AUTO_TEST_CASE(between_runs_finds_a_real_change) {
  std::mt19937_64 rng(31);
  const NoiseRule runs = between(5, 6);
  std::size_t found = 0;
  for (int i = 0; i < 200; ++i) found += judge(runs_of(rng, 0.30, 5, 6).control, runs_of(rng, 0.30, 5, 6).test, runs).verdict ==
                                          model::Verdict::slower;
  BOOST_TEST(found >= 160u);  // +30 % against 8 % run-to-run noise: about 88 %
  // Three runs a side can never reach p < 0.01: not testable, whatever the change.
  const auto s = runs_of(rng, 1.0, 3, 6);
  BOOST_TEST((judge(s.control, s.test, between(3, 6)).verdict == model::Verdict::untestable));
  // The runs' medians: a run's units without a value count as 0.
  model::Samples sparse_run(6);
  sparse_run.add(0, 5.0);
  sparse_run.add(2, 7.0);
  sparse_run.add(4, 9.0);
  sparse_run.add(1, -1.0);
  sparse_run.settle();
  UnitRuns two;
  two.runs = 2;
  two.of_unit = {0, 1, 0, 1, 0, 1};
  BOOST_TEST(run_medians(sparse_run, two) == (std::vector<double>{7.0, 0.0}));
}

// A figure that can be negative (memory's net change): the percentage is of the base's
// magnitude, so it goes the way the Δ goes, and the relative rule holds for it too.
BOOST_AUTO_TEST_CASE(negative_bases) {
  const NoiseRule rule = NoiseRule::of({5.0, 0.0});
  const std::vector<double> c(8, -2.0 * (1 << 20)), t(8, -1.0 * (1 << 20));
  const auto v = compare_samples(c, t, rule);
  BOOST_REQUIRE(v.pct.has_value());
  BOOST_TEST(*v.pct == 50.0);  // -2 MiB -> -1 MiB: +1 MiB, +50 %
  BOOST_TEST((v.verdict == model::Verdict::slower));
  // +1 KiB on -2 MiB is 0.05 %: under the 5 % rule, the same within noise.
  std::vector<double> c2, t2;
  for (int i = 0; i < 8; ++i) {
    c2.push_back(-2.0 * (1 << 20) + i);
    t2.push_back(-2.0 * (1 << 20) + 1024 + i);
  }
  const auto small = compare_samples(c2, t2, rule);
  BOOST_TEST(!small.significant);
  BOOST_TEST((small.verdict == model::Verdict::same));
}

BOOST_AUTO_TEST_SUITE_END()
