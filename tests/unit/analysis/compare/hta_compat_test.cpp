// --hta-compat (analysis/compare/hta_compat.cpp): HTA's TraceDiff semantics, totals of
// one rank and one step by default, rows by name with HTA's change categories.
#include <boost/test/unit_test.hpp>

#include "support/pair_support.hpp"
#include "util/errors.hpp"

using namespace tracediff;

namespace {

analysis::CompareOptions hta() {
  analysis::CompareOptions o;
  o.hta_compat = true;
  return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hta_compat)

BOOST_AUTO_TEST_CASE(totals_of_the_first_step_by_default) {
  // Step s adds s us: step 1 (the smallest) holds 100 and 150 us.
  const auto r = test::compare_pair(test::steps_trace({{"aten::mm", 100}}), test::steps_trace({{"aten::mm", 150}}), hta());
  BOOST_TEST(r.hta_compat);
  const auto* mm = test::row_named(r, "aten::mm");
  BOOST_REQUIRE(mm);
  BOOST_TEST(!mm->per_step_basis);
  BOOST_TEST(mm->control.count == 1u);
  BOOST_TEST(mm->control.total_ns == 100000);
  BOOST_TEST(mm->test.total_ns == 150000);
  BOOST_TEST(mm->diff_ns() == 50000);
}

BOOST_AUTO_TEST_CASE(all_steps_add_up) {
  auto o = hta();
  o.control.all_iterations = o.test.all_iterations = true;
  const auto r = test::compare_pair(test::steps_trace({{"aten::mm", 100}}), test::steps_trace({{"aten::mm", 100}}), o);
  const auto* mm = test::row_named(r, "aten::mm");
  BOOST_REQUIRE(mm);
  BOOST_TEST(mm->control.count == 6u);
  BOOST_TEST(mm->control.total_ns == (100 + 101 + 102 + 103 + 104 + 105) * 1000);
  BOOST_TEST((mm->change == model::Change::unchanged));
}

BOOST_AUTO_TEST_CASE(change_categories_follow_the_counts) {
  const auto r = test::compare_pair(test::steps_trace({{"aten::mm", 10}, {"aten::gone", 10}}),
                                    test::steps_trace({{"aten::mm", 10}, {"aten::mm", 10}, {"aten::new", 10}}), hta());
  BOOST_TEST((test::row_named(r, "aten::new")->change == model::Change::added));
  BOOST_TEST((test::row_named(r, "aten::gone")->change == model::Change::deleted));
  const auto* mm = test::row_named(r, "aten::mm");
  BOOST_TEST(mm->diff_count() == 1);
  BOOST_TEST((mm->change == model::Change::increased));
}

BOOST_AUTO_TEST_CASE(a_step_the_side_lacks_is_a_usage_error) {
  auto o = hta();
  o.control.iterations = std::vector<std::int64_t>{99};
  BOOST_CHECK_THROW(test::compare_pair(test::steps_trace({{"aten::mm", 10}}), test::steps_trace({{"aten::mm", 10}}), o),
                    UsageError);
}

BOOST_AUTO_TEST_SUITE_END()
