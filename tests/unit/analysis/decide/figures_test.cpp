// The headline and the breakdown (analysis/decide/figures.cpp): each figure the mean
// of its per-step values, judged by the noise rule, from pairs built in code.
#include <boost/test/unit_test.hpp>

#include <string>

#include "support/pair_support.hpp"

using namespace tracediff;

namespace {

const model::Figure* figure(const std::vector<model::Figure>& v, const std::string& id) {
  for (const auto& f : v)
    if (f.id == id) return &f;
  return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(figures)

BOOST_AUTO_TEST_CASE(step_time_is_the_mean_step_span) {
  // Every ProfilerStep span is 9 ms on both sides.
  const auto r = test::compare_pair(test::steps_trace({{"op_a", 100}}), test::steps_trace({{"op_a", 300}}));
  const auto* st = figure(r.headline, "step_time");
  BOOST_REQUIRE(st);
  BOOST_TEST(st->value.control == 9e6);
  BOOST_TEST(st->value.test == 9e6);
  BOOST_TEST(!st->value.significant);
  BOOST_TEST((st->value.verdict == model::Verdict::same));
}

BOOST_AUTO_TEST_CASE(gpu_busy_is_the_kernels_time_in_the_step) {
  // One kernel a step of 100 + s us and 200 + s us: means 102.5 and 202.5 us.
  const auto r = test::compare_pair(test::steps_trace({{"op_a", 300, "gemm", 100}}),
                                    test::steps_trace({{"op_a", 300, "gemm", 200}}));
  const auto* busy = figure(r.breakdown, "gpu_busy");
  BOOST_REQUIRE(busy);
  BOOST_TEST(busy->value.control == 102500.0);
  BOOST_TEST(busy->value.test == 202500.0);
  BOOST_TEST(busy->value.significant);
  BOOST_TEST((busy->value.verdict == model::Verdict::slower));
  BOOST_TEST(*busy->value.pct == 100.0 * 100000 / 102500, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(the_headline_is_part_of_the_breakdown) {
  const auto r = test::compare_pair(test::steps_trace({{"op_a", 100, "gemm", 10}}),
                                    test::steps_trace({{"op_a", 100, "gemm", 10}}));
  BOOST_REQUIRE(!r.headline.empty());
  for (const auto& h : r.headline) {
    const auto* b = figure(r.breakdown, h.id);
    BOOST_REQUIRE(b);
    BOOST_TEST(b->value.control == h.value.control);
    BOOST_TEST(b->value.test == h.value.test);
  }
}

BOOST_AUTO_TEST_CASE(step_stats_are_shown_unjudged) {
  const auto r = test::compare_pair(test::steps_trace({{"op_a", 100}}), test::steps_trace({{"op_a", 100}}));
  BOOST_REQUIRE(!r.step_stats.empty());
  for (const auto& f : r.step_stats) BOOST_TEST(!f.judged, f.id);
}

BOOST_AUTO_TEST_SUITE_END()
