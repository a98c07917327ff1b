// What the report says first (analysis/decide): the top regressions and improvements
// (top_lists.cpp) and the plain-language notes (notes.cpp), from pairs built in code.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>

#include "support/pair_support.hpp"
#include "support/test_support.hpp"

using namespace tracediff;
using test::StepOp;

namespace {

std::vector<std::string> names(const model::DiffReport& r, const model::TopList& l) {
  std::vector<std::string> out;
  for (const auto i : l.rows) out.push_back(r.rows[i].name);
  return out;
}

bool any_note(const model::DiffReport& r, const std::string& part) {
  return std::any_of(r.notes.begin(), r.notes.end(), [&](const auto& n) { return n.find(part) != std::string::npos; });
}

// Three slower (by 30, 60 and 90 us), one faster (by 50 us), one steady.
model::DiffReport mixed() {
  return test::compare_pair(
      test::steps_trace({{"op_a", 100}, {"op_b", 100}, {"op_c", 100}, {"op_d", 100}, {"op_e", 100}}),
      test::steps_trace({{"op_a", 130}, {"op_b", 190}, {"op_c", 160}, {"op_d", 50}, {"op_e", 100}}));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(findings)

BOOST_AUTO_TEST_CASE(regressions_by_size_of_change) {
  const auto r = mixed();
  BOOST_TEST(names(r, r.top_regressions) == (std::vector<std::string>{"op_b", "op_c", "op_a"}));
}

BOOST_AUTO_TEST_CASE(improvements_apart_and_steady_rows_in_neither) {
  const auto r = mixed();
  BOOST_TEST(names(r, r.top_improvements) == std::vector<std::string>{"op_d"});
  for (const auto* l : {&r.top_regressions, &r.top_improvements})
    for (const auto i : l->rows) BOOST_TEST(r.rows[i].name != "op_e");
}

BOOST_AUTO_TEST_CASE(the_lists_stop_at_top) {
  analysis::CompareOptions o;
  o.top = 2;
  const auto r = test::compare_pair(test::steps_trace({{"op_a", 100}, {"op_b", 100}, {"op_c", 100}}),
                                    test::steps_trace({{"op_a", 130}, {"op_b", 190}, {"op_c", 160}}), o);
  BOOST_TEST(names(r, r.top_regressions) == (std::vector<std::string>{"op_b", "op_c"}));
}

BOOST_AUTO_TEST_CASE(an_unchanged_pair_has_empty_lists) {
  const auto r = test::compare_pair(test::steps_trace({{"op_a", 100}}), test::steps_trace({{"op_a", 100}}));
  BOOST_TEST(r.top_regressions.rows.empty());
  BOOST_TEST(r.top_improvements.rows.empty());
}

BOOST_AUTO_TEST_CASE(too_few_steps_are_noted_and_nothing_is_judged) {
  const auto r = test::compare_pair(test::steps_trace({{"op_a", 100}}, 3), test::steps_trace({{"op_a", 200}}, 3));
  BOOST_TEST(any_note(r, "Not testable"));
  BOOST_TEST(!test::row_named(r, "op_a")->significant);
  const auto six = test::compare_pair(test::steps_trace({{"op_a", 100}}), test::steps_trace({{"op_a", 200}}));
  BOOST_TEST(!any_note(six, "Not testable"));
}

BOOST_AUTO_TEST_CASE(traces_without_steps_are_compared_whole) {
  const auto whole = test::trace_json({test::x_event("cpu_op", "op_a", 1, 1, 0, 10)});
  const auto r = test::compare_pair(whole, whole);
  BOOST_TEST(r.unit == "trace");
  BOOST_TEST(any_note(r, "ProfilerStep"));
  BOOST_TEST(!any_note(test::compare_pair(test::steps_trace({{"op_a", 1}}), test::steps_trace({{"op_a", 1}})),
                       "Neither side has ProfilerStep"));
}

BOOST_AUTO_TEST_SUITE_END()
