// The default mode's answers on generated traces with known effects (tracegen).
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "support/test_support.hpp"

using namespace tracediff::test;

namespace {

boost::json::object compare_json(const std::vector<std::string>& args) {
  auto a = args;
  a.insert(a.end(), {"--json", "-", "-q"});
  const auto r = run_cli(a);
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return parse_json(r.out).as_object();
}

double num(const boost::json::value& v) { return v.is_null() ? NAN : v.to_number<double>(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(beyond_hta)

// A 30 % slowdown of one operator over 8 steps is flagged; ±5 % random jitter on
// everything else is not (docs/is-it-real.md).
BOOST_AUTO_TEST_CASE(real_slowdown_is_flagged_jitter_is_not) {
  const auto c = tracegen("noise-c", {"--ranks", "1", "--steps", "8", "--seed", "1", "--jitter", "5"});
  const auto t = tracegen("noise-t", {"--ranks", "1", "--steps", "8", "--seed", "2", "--jitter", "5",
                                      "--slowdown", "aten::mm=1.3"});
  const auto j = compare_json({c, t});
  bool mm_flagged = false;
  int flagged = 0;
  for (const auto& v : j.at("rows").as_array()) {
    const auto& row = v.as_object();
    const std::string name(row.at("name").as_string());
    if (!row.at("significant").as_bool()) continue;
    ++flagged;
    if (name == "aten::mm") {
      mm_flagged = row.at("verdict").as_string() == "slower";
      BOOST_TEST(num(row.at("diff_pct")) > 20.0);
      continue;
    }
    // Anything else flagged must be an ancestor of aten::mm: slower inclusive time,
    // unchanged self time.
    const double cs = num(row.at("control_self_per_step_us")), ts = num(row.at("test_self_per_step_us"));
    BOOST_TEST(std::abs(ts - cs) <= 0.05 * cs + 1.0, name << " flagged although its own time did not change");
  }
  BOOST_TEST(mm_flagged);
  BOOST_TEST(flagged <= 3);
}

BOOST_AUTO_TEST_CASE(jitter_alone_flags_nothing) {
  const auto c = tracegen("jit-c", {"--ranks", "2", "--steps", "8", "--seed", "3", "--jitter", "5"});
  const auto t = tracegen("jit-t", {"--ranks", "2", "--steps", "8", "--seed", "4", "--jitter", "5"});
  const auto j = compare_json({c, t});
  for (const auto& v : j.at("rows").as_array())
    BOOST_TEST(!v.at("significant").as_bool(), v.at("name").as_string() << " flagged on jitter alone");
}

BOOST_AUTO_TEST_CASE(per_step_figures_normalise_unequal_step_counts) {
  // Same workload, 4 steps against 8: per-step figures agree, totals do not.
  const auto c = tracegen("steps-c", {"--ranks", "1", "--steps", "4", "--seed", "1", "--ns"});
  const auto t = tracegen("steps-t", {"--ranks", "1", "--steps", "8", "--seed", "1", "--ns"});
  const auto j = compare_json({c, t});
  BOOST_TEST(j.at("steps").at("control").at("count").as_int64() == 4);
  BOOST_TEST(j.at("steps").at("test").at("count").as_int64() == 8);
  int increased = 0;
  for (const auto& v : j.at("rows").as_array()) {
    const auto& row = v.as_object();
    if (row.at("name").as_string() != "aten::mm") continue;
    BOOST_TEST(row.at("test_count").as_int64() == 2 * row.at("control_count").as_int64());
    BOOST_TEST(num(row.at("control_count_per_step")) == num(row.at("test_count_per_step")));
    BOOST_TEST(row.at("change").as_string() == "unchanged");
    BOOST_TEST(row.at("verdict").as_string() == "same");
    ++increased;
  }
  BOOST_TEST(increased == 1);
}

BOOST_AUTO_TEST_CASE(kernels_know_their_launcher_and_steps_their_breakdown) {
  const auto c = tracegen("launch-c", {"--ranks", "2", "--steps", "4", "--seed", "1"});
  const auto j = compare_json({c, c});
  int kernels_with_launcher = 0, kernels = 0;
  for (const auto& v : j.at("rows").as_array()) {
    if (v.at("category").as_string() != "kernel") continue;
    ++kernels;
    if (v.as_object().contains("launched_by")) ++kernels_with_launcher;
  }
  BOOST_TEST(kernels > 0);
  BOOST_TEST(kernels_with_launcher == kernels);
  BOOST_TEST(!j.at("by_launcher").as_array().empty());
  const auto& mean = j.at("steps").at("control").at("mean").as_object();
  BOOST_TEST(num(mean.at("gpu_busy_us")) > 0);
  BOOST_TEST(num(mean.at("kernel_us")) > 0);
  BOOST_TEST(num(mean.at("cpu_self_us")) > 0);
  BOOST_TEST(j.at("ranks").at("control").as_array().size() == 2u);
  BOOST_TEST(j.at("steps").at("control").at("per_step").as_array().size() == 8u);
}

BOOST_AUTO_TEST_SUITE_END()
