// The result model's one place for a row's basis (model/diff_row.hpp): per-step means in
// the default mode, totals in --hta-compat, and what is new on the test side.
#include <boost/test/unit_test.hpp>

#include "model/report.hpp"

using namespace tracediff;

BOOST_AUTO_TEST_SUITE(row_basis)

BOOST_AUTO_TEST_CASE(per_step_or_total_by_mode) {
  model::DiffRow row;
  row.control.total_ns = 6'000;
  row.test.total_ns = 9'000;
  row.control_step.total_ns = 1'000;
  row.test_step.total_ns = 1'500;
  BOOST_TEST(row.basis_control_ns() == 1'000);
  BOOST_TEST(row.basis_test_ns() == 1'500);
  BOOST_TEST(row.basis_diff_ns() == 500);
  row.per_step_basis = false;  // --hta-compat
  BOOST_TEST(row.basis_control_ns() == 6'000);
  BOOST_TEST(row.basis_test_ns() == 9'000);
  BOOST_TEST(row.basis_diff_ns() == 3'000);
  BOOST_TEST(!row.is_new());
}

BOOST_AUTO_TEST_CASE(new_by_its_basis) {
  model::DiffRow row;
  row.test_step.total_ns = 10;
  row.test_step.self_ns = 4;
  row.test.total_ns = 60;
  BOOST_TEST(row.is_new());
  BOOST_TEST(row.self_is_new());
  BOOST_TEST(row.diff_self_per_step_ns() == 4);
  row.control.total_ns = 6;  // totals: not new in --hta-compat, still new per step
  row.per_step_basis = false;
  BOOST_TEST(!row.is_new());
  row.per_step_basis = true;
  BOOST_TEST(row.is_new());
}

BOOST_AUTO_TEST_SUITE_END()
