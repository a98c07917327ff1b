// The change points of a series of run values (analysis/trend/change_points.hpp): a
// shift is found at the run where it was put, noise alone gives none, the newest run is
// checked on its own, and the noise rule's minimum holds.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "analysis/trend/change_points.hpp"

using namespace tracediff::analysis;

namespace {

// Deterministic noise: a sum of uniform draws (about normal), relative sd about `sd`.
std::vector<double> noisy(std::size_t n, double level, double sd, std::uint64_t seed) {
  std::vector<double> v;
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0;
    for (int k = 0; k < 12; ++k) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      sum += static_cast<double>(s >> 11) / 9007199254740992.0;
    }
    v.push_back(level * (1 + sd * (sum - 6)));
  }
  return v;
}

const NoiseRule k_rule = NoiseRule::of({5.0, 0.0});

std::vector<ChangePoint> find(const std::vector<double>& v) { return change_points(v, {}, k_rule, 0.01, 4, 5); }

}  // namespace

BOOST_AUTO_TEST_SUITE(trend_change_points)

BOOST_AUTO_TEST_CASE(a_shift_is_found_where_it_was_put) {
  for (std::size_t at : {6u, 10u, 17u})
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      auto v = noisy(24, 100.0, 0.01, seed);
      for (std::size_t i = at; i < v.size(); ++i) v[i] *= 1.10;
      const auto cps = find(v);
      BOOST_TEST_REQUIRE(cps.size() == 1u, "at " << at << " seed " << seed);
      BOOST_TEST(cps[0].at == at);
      BOOST_TEST(!cps[0].newest);
      BOOST_TEST(cps[0].after / cps[0].before > 1.05);
      BOOST_TEST(cps[0].p < 0.01);
    }
}

BOOST_AUTO_TEST_CASE(two_shifts_both_found) {
  auto v = noisy(40, 100.0, 0.01, 9);
  for (std::size_t i = 12; i < v.size(); ++i) v[i] *= 1.2;
  for (std::size_t i = 27; i < v.size(); ++i) v[i] *= 0.8;
  const auto cps = find(v);
  BOOST_TEST_REQUIRE(cps.size() == 2u);
  BOOST_TEST(cps[0].at == 12u);
  BOOST_TEST(cps[1].at == 27u);
}

BOOST_AUTO_TEST_CASE(noise_alone_gives_none) {
  std::size_t found = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) found += find(noisy(30, 100.0, 0.02, seed)).size();
  BOOST_TEST(found == 0u);
  // Large series take the asymptotic p-value: still none.
  BOOST_TEST(find(noisy(1000, 100.0, 0.02, 3)).empty());
}

BOOST_AUTO_TEST_CASE(below_the_minimum_change_is_none) {
  auto v = noisy(30, 100.0, 0.001, 4);
  for (std::size_t i = 15; i < v.size(); ++i) v[i] *= 1.03;  // clear, but 3 % < 5 %
  BOOST_TEST(find(v).empty());
  BOOST_TEST(change_points(v, {}, NoiseRule::of({2.0, 0.0}), 0.01, 4, 5).size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_newest_run_alone) {
  auto v = noisy(20, 100.0, 0.01, 5);
  v.back() *= 1.15;
  const auto cps = find(v);
  BOOST_TEST_REQUIRE(cps.size() == 1u);
  BOOST_TEST(cps[0].at == v.size() - 1);
  BOOST_TEST(cps[0].newest);
  // Runs that all gave the same value (MAD 0), the newest 15 % off: a change, unless the
  // newest run's own noise (a standard error as large as the step) explains it.
  std::vector<double> flat(20, 100.0);
  flat.back() = 115.0;
  std::vector<double> se(flat.size(), 0.0);
  BOOST_TEST(change_points(flat, se, k_rule, 0.01, 4, 5).size() == 1u);
  se.back() = 10.0;
  BOOST_TEST(change_points(flat, se, k_rule, 0.01, 4, 5).empty());
  // Too few runs before it to know their spread: none.
  std::vector<double> few(v.end() - 5, v.end());
  BOOST_TEST(find(few).empty());
}

BOOST_AUTO_TEST_CASE(a_change_that_began_before_the_newest_run_is_not_the_newest_runs) {
  auto v = noisy(20, 100.0, 0.01, 7);
  v[18] *= 1.15;  // the last two runs: too few for a split, and not the newest's own change
  v[19] *= 1.15;
  for (const auto& c : find(v)) BOOST_TEST(!(c.newest && c.at == 19u));
}

BOOST_AUTO_TEST_CASE(runs_without_a_value_are_skipped) {
  auto v = noisy(24, 100.0, 0.01, 6);
  for (std::size_t i = 12; i < v.size(); ++i) v[i] *= 1.1;
  v[3] = v[15] = NAN;
  const auto cps = find(v);
  BOOST_TEST_REQUIRE(cps.size() == 1u);
  BOOST_TEST(cps[0].at == 12u);
}

BOOST_AUTO_TEST_CASE(pettitt_p_values) {
  // A perfect split of 80 values: the asymptotic formula's value, 2 exp(-6 K^2 / (n^3 + n^2)).
  std::vector<double> v;
  for (int i = 0; i < 80; ++i) v.push_back(i < 30 ? 10 : 100);
  const auto [at, p] = pettitt(v);
  BOOST_TEST(at == 30u);
  const double k = 30.0 * 50;  // |U_t| at a perfect split: t (n - t)
  BOOST_TEST(p == 2 * std::exp(-6 * k * k / (80.0 * 80 * 80 + 80.0 * 80)), boost::test_tools::tolerance(1e-9));
  // Below 64 values the p-value is counted over permutations: at least 1 / 10,000.
  std::vector<double> w(v.begin() + 20, v.begin() + 40);  // 10 and 10
  const auto [at_w, p_w] = pettitt(w);
  BOOST_TEST(at_w == 10u);
  BOOST_TEST(p_w >= 1.0 / 10000);
  BOOST_TEST(p_w < 0.01);
  const auto [at2, p2] = pettitt(std::vector<double>(30, 7.0));  // all tied: no evidence
  BOOST_TEST(p2 == 1.0);
  (void)at2;
}

BOOST_AUTO_TEST_SUITE_END()
