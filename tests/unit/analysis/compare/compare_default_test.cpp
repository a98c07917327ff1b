// The default mode's rows (analysis/compare/rows.cpp): per-step figures of each name,
// added and deleted names, the device filter and the noise rule, against figures
// computed by hand from pairs built in code (support/pair_support.hpp).
#include <boost/test/unit_test.hpp>

#include "support/pair_support.hpp"

using namespace tracediff;
using test::StepOp;

BOOST_AUTO_TEST_SUITE(compare_default)

BOOST_AUTO_TEST_CASE(a_row_per_name_with_per_step_means) {
  // Six steps; step s adds s us: means 100 + 2.5 and 150 + 2.5 us a step.
  const auto r = test::compare_pair(test::steps_trace({{"aten::mm", 100}}), test::steps_trace({{"aten::mm", 150}}));
  const auto* mm = test::row_named(r, "aten::mm");
  BOOST_REQUIRE(mm);
  BOOST_TEST(mm->control.count == 6u);
  BOOST_TEST(mm->control.total_ns == (100 + 101 + 102 + 103 + 104 + 105) * 1000);
  BOOST_TEST(mm->control_step.total_ns == 102500.0);
  BOOST_TEST(mm->test_step.total_ns == 152500.0);
  BOOST_TEST(mm->diff_per_step_ns() == 50000.0);
  BOOST_TEST(mm->control_step.count == 1.0);
  BOOST_TEST(mm->per_step_basis);
  BOOST_TEST(mm->significant);
  BOOST_TEST((mm->verdict == model::Verdict::slower));
  BOOST_TEST(*mm->pct == 100.0 * 50000 / 102500, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(names_of_one_side_only_are_added_or_deleted) {
  const auto r = test::compare_pair(test::steps_trace({{"aten::mm", 100}, {"aten::old", 30}}),
                                    test::steps_trace({{"aten::mm", 100}, {"aten::new", 40}}));
  const auto* added = test::row_named(r, "aten::new");
  const auto* deleted = test::row_named(r, "aten::old");
  BOOST_REQUIRE((added && deleted));
  BOOST_TEST((added->change == model::Change::added));
  BOOST_TEST(added->control.count == 0u);
  BOOST_TEST(added->test.count == 6u);
  BOOST_TEST((deleted->change == model::Change::deleted));
  BOOST_TEST(deleted->test.count == 0u);
  const auto* same = test::row_named(r, "aten::mm");
  BOOST_REQUIRE(same);
  BOOST_TEST(!same->significant);
  BOOST_TEST((same->verdict == model::Verdict::same));
}

BOOST_AUTO_TEST_CASE(the_device_filter_keeps_one_side_of_the_launch) {
  const auto c = test::steps_trace({{"aten::mm", 50, "gemm", 100}});
  const auto t = test::steps_trace({{"aten::mm", 50, "gemm", 200}});
  analysis::CompareOptions gpu;
  gpu.device = analysis::DeviceFilter::gpu;
  const auto r = test::compare_pair(c, t, gpu);
  BOOST_TEST(r.device_filter == "gpu");
  BOOST_REQUIRE(test::row_named(r, "gemm"));
  BOOST_TEST(!test::row_named(r, "aten::mm"));
  BOOST_TEST(test::row_named(r, "gemm")->diff_per_step_ns() == 100000.0);
  analysis::CompareOptions cpu;
  cpu.device = analysis::DeviceFilter::cpu;
  const auto rc = test::compare_pair(c, t, cpu);
  BOOST_TEST(!test::row_named(rc, "gemm"));
  BOOST_TEST(test::row_named(rc, "aten::mm"));
}

BOOST_AUTO_TEST_CASE(a_change_below_min_change_is_not_significant) {
  const auto c = test::steps_trace({{"aten::mm", 100}});
  const auto t = test::steps_trace({{"aten::mm", 110}});  // +9.8 %
  analysis::CompareOptions strict;
  strict.min_change.pct = 20;
  const auto strict_report = test::compare_pair(c, t, strict);  // row_named points into it
  const auto* row = test::row_named(strict_report, "aten::mm");
  BOOST_REQUIRE(row);
  BOOST_TEST(!row->significant);
  analysis::CompareOptions loose;
  loose.min_change.pct = 1;
  const auto loose_report = test::compare_pair(c, t, loose);
  const auto* loose_row = test::row_named(loose_report, "aten::mm");
  BOOST_REQUIRE(loose_row);
  BOOST_TEST(loose_row->significant);
  analysis::CompareOptions by_time;  // 10 us a step is below 20 us
  by_time.min_change.ns = 20'000;
  const auto time_report = test::compare_pair(c, t, by_time);
  const auto* time_row = test::row_named(time_report, "aten::mm");
  BOOST_REQUIRE(time_row);
  BOOST_TEST(!time_row->significant);
}

BOOST_AUTO_TEST_CASE(kernels_know_their_launcher) {
  const auto r = test::compare_pair(test::steps_trace({{"aten::mm", 50, "gemm", 100}}),
                                    test::steps_trace({{"aten::mm", 50, "gemm", 100}}));
  const auto* gemm = test::row_named(r, "gemm");
  BOOST_REQUIRE(gemm);
  BOOST_TEST(gemm->launched_by == "aten::mm");
  BOOST_TEST((gemm->device == model::Device::gpu));
  // The launch (1 us) is the operator's only child: its self time is the rest.
  const auto* mm = test::row_named(r, "aten::mm");
  BOOST_TEST(mm->control.self_ns == mm->control.total_ns - 6 * 1000);
}

BOOST_AUTO_TEST_SUITE_END()
