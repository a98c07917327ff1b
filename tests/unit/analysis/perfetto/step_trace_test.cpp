// analysis/perfetto/step_trace: which step a side shows (its median by step time).
#include <boost/test/unit_test.hpp>

#include "analysis/perfetto/step_trace.hpp"

using namespace tracediff;

namespace {

model::SideSummary side(std::initializer_list<std::tuple<int, std::int64_t, std::int64_t>> steps) {
  model::SideSummary s;
  for (const auto& [rank, step, dur] : steps) {
    model::StepDetail d;
    d.rank = rank;
    d.step = step;
    d.dur_ns = dur;
    s.step_details.push_back(d);
  }
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(perfetto_step)

BOOST_AUTO_TEST_CASE(median_by_step_time) {
  // Odd count: the middle one by time, wherever it is in (rank, step) order.
  BOOST_TEST(*analysis::median_step(side({{0, 1, 50}, {0, 2, 10}, {1, 1, 30}})) == 2u);
  // Even count: the lower of the two middle ones.
  BOOST_TEST(*analysis::median_step(side({{0, 1, 40}, {0, 2, 10}, {0, 3, 30}, {0, 4, 20}})) == 3u);
  // Equal times keep their (rank, step) order: the middle of three is the second.
  BOOST_TEST(*analysis::median_step(side({{0, 1, 20}, {0, 2, 20}, {1, 1, 20}})) == 1u);
  BOOST_TEST(!analysis::median_step(side({})).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
