// The noise test on sparse samples (model::Samples) gives what it gives on the same
// values written out densely, and known values.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "analysis/noise.hpp"

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

}  // namespace

BOOST_AUTO_TEST_SUITE(noise)

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
    const NoiseRule rule{5.0, 0.0};
    const auto js = judge(sc, st, rule), jd = judge(c, t, rule);
    BOOST_TEST((js.verdict == jd.verdict));
    BOOST_TEST(js.significant == jd.significant);
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

BOOST_AUTO_TEST_SUITE_END()
