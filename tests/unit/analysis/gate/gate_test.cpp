// --fail-on: the expression grammar (docs/fail-on.md) and its evaluation on a
// hand-built DiffReport.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "analysis/gate/gate.hpp"
#include "support/report_support.hpp"
#include "util/errors.hpp"

using namespace tracediff;
using model::GateComparator;
using model::GateCondition;
using model::GateMetric;
using model::GateOutcome;
using model::GateUnit;
using analysis::parse_gate_condition;

namespace {

model::DiffRow row(const std::string& name, model::Device device, double control_ns, double test_ns,
                   model::Change change = model::Change::unchanged) {
  auto r = test::steady_row(name, device, control_ns, test_ns, 2);
  r.change = change;
  return r;
}

model::Figure figure(const char* id, double c, double t) {
  model::Figure f;
  f.id = id;
  f.value.control = c;
  f.value.test = t;
  f.value.pct = 100.0 * (t - c) / c;
  f.value.significant = true;
  f.value.verdict = t > c ? model::Verdict::slower : model::Verdict::faster;
  return f;
}

// Step time 77.5 ms -> 87.0 ms (+12.3%), GPU busy 50 ms -> 51 ms (+2%).
model::DiffReport report() {
  model::DiffReport r;
  r.control.label = "Control";
  r.test.label = "Test";
  r.control.step_times.steps = {{0, 1, 77'500'000}, {0, 2, 77'500'000}};
  r.control.step_times.mean_ns = 77'500'000;
  r.test.step_times.steps = {{0, 1, 87'000'000}, {0, 2, 87'000'000}};
  r.test.step_times.mean_ns = 87'000'000;
  r.control.step_mean.gpu_busy_ns = 50'000'000;
  r.test.step_mean.gpu_busy_ns = 51'000'000;
  r.headline.push_back(figure("step_time", 77'500'000, 87'000'000));
  r.headline.push_back(figure("gpu_busy", 50'000'000, 51'000'000));
  r.rows.push_back(row("aten::mm", model::Device::cpu, 1'000'000, 1'150'000));  // +15%
  r.rows.push_back(row("aten::add", model::Device::cpu, 2'000'000, 1'900'000));  // -5%
  r.rows.push_back(row("sm80_xmma_gemm_f32", model::Device::gpu, 10'000'000, 11'500'000));  // +1.5 ms
  r.rows.push_back(row("cutlass_gemm_relu", model::Device::gpu, 4'000'000, 5'000'000));  // +1 ms
  r.rows.push_back(row("elementwise_kernel", model::Device::gpu, 3'000'000, 3'000'000));
  r.rows.push_back(row("new_kernel", model::Device::gpu, 0, 500'000, model::Change::added));
  for (std::size_t i = 0; i < r.rows.size(); ++i) r.by_impact.push_back(i);
  r.ops_diff.groups[static_cast<int>(model::Change::added)] = {"new_kernel"};
  r.ops_diff.groups[static_cast<int>(model::Change::unchanged)] = {"aten::mm", "aten::add"};
  return r;
}

model::GateResult eval(const std::string& expr, const model::DiffReport& r) {
  auto results = analysis::evaluate_gate({parse_gate_condition(expr)}, r);
  BOOST_REQUIRE(results.size() == 1u);
  return results.front();
}

bool fires(const std::string& expr, const model::DiffReport& r = report()) { return eval(expr, r).fired(); }
bool evaluated(const model::GateResult& g) { return g.outcome != GateOutcome::not_evaluated; }

}  // namespace

BOOST_AUTO_TEST_SUITE(gate)

BOOST_AUTO_TEST_CASE(parses_metrics_comparators_and_units) {
  auto c = parse_gate_condition("step_time>+5%");
  BOOST_TEST((c.metric == GateMetric::step_time));
  BOOST_TEST((c.comparator == GateComparator::greater));
  BOOST_TEST((c.unit == GateUnit::percent));
  BOOST_TEST(c.threshold == 5.0);
  BOOST_TEST(c.text == "step_time>+5%");

  c = parse_gate_condition("gpu_busy>=3%");
  BOOST_TEST((c.metric == GateMetric::gpu_busy));
  BOOST_TEST((c.comparator == GateComparator::greater_equal));

  c = parse_gate_condition("op:aten::mm>+10%");
  BOOST_TEST((c.metric == GateMetric::op));
  BOOST_TEST(c.pattern == "aten::mm");

  c = parse_gate_condition("kernel:*gemm*>+2ms");
  BOOST_TEST((c.metric == GateMetric::kernel));
  BOOST_TEST(c.pattern == "*gemm*");
  BOOST_TEST((c.unit == GateUnit::ns));
  BOOST_TEST(c.threshold == 2e6);

  c = parse_gate_condition("step_time<-1.5%");
  BOOST_TEST((c.comparator == GateComparator::less));
  BOOST_TEST(c.threshold == -1.5);

  c = parse_gate_condition("  added > 0  ");
  BOOST_TEST((c.metric == GateMetric::added));
  BOOST_TEST((c.unit == GateUnit::count));
  BOOST_TEST(c.threshold == 0.0);

  c = parse_gate_condition("deleted<=2");
  BOOST_TEST((c.comparator == GateComparator::less_equal));
  BOOST_TEST(c.threshold == 2.0);

  BOOST_TEST((parse_gate_condition("increased>0").metric == GateMetric::increased));
  BOOST_TEST((parse_gate_condition("decreased>0").metric == GateMetric::decreased));
  BOOST_TEST((parse_gate_condition("any-op:aten::*>+20%").metric == GateMetric::any_op));
  BOOST_TEST((parse_gate_condition("any-kernel:*>+1ms").metric == GateMetric::any_kernel));

  // Every time unit, µ spelled both ways.
  BOOST_TEST(parse_gate_condition("step_time>250ns").threshold == 250.0);
  BOOST_TEST(parse_gate_condition("step_time>3us").threshold == 3000.0);
  BOOST_TEST(parse_gate_condition("step_time>3\xC2\xB5s").threshold == 3000.0);
  BOOST_TEST(parse_gate_condition("step_time>3\xCE\xBCs").threshold == 3000.0);
  BOOST_TEST(parse_gate_condition("step_time>0.5s").threshold == 5e8);
  BOOST_TEST(parse_gate_condition("step_time > 1.5 ms").threshold == 1.5e6);
  // A plain 0 on a time metric: any increase.
  c = parse_gate_condition("op:aten::mm>0");
  BOOST_TEST((c.unit == GateUnit::ns));
}

BOOST_AUTO_TEST_CASE(kernel_names_with_angle_brackets_keep_them) {
  auto c = parse_gate_condition("kernel:void gemm<float, 4>>+1ms");
  BOOST_TEST(c.pattern == "void gemm<float, 4>");
  BOOST_TEST((c.comparator == GateComparator::greater));
  c = parse_gate_condition("kernel:a<b>>=2%");
  BOOST_TEST(c.pattern == "a<b>");
  BOOST_TEST((c.comparator == GateComparator::greater_equal));
}

BOOST_AUTO_TEST_CASE(malformed_expressions_are_usage_errors) {
  for (const char* bad : {
           "",                    // empty
           "step_time",           // no comparator
           "step_time>",          // no threshold
           ">5%",                 // no metric
           "step_tim>5%",         // unknown metric
           "op:>5%",              // empty glob
           "kernel:>1ms",         // empty glob
           "step_time>5",         // time threshold without a unit
           "step_time>5 parsecs", // unknown unit
           "step_time>5%%",       // unknown unit
           "step_time>five%",     // not a number
           "step_time>1e3ms",     // no exponents
           "step_time>nan%",
           "step_time>+-5%",
           "step_time>5.5.5%",
           "step_time>.%",
           "added>5%",            // a count, not a time
           "deleted>1ms",
           "step_time=5%",        // '=' alone is not a comparator
       }) {
    BOOST_CHECK_THROW(parse_gate_condition(bad), UsageError);
  }
  try {
    parse_gate_condition("stp>5%");
    BOOST_FAIL("no throw");
  } catch (const UsageError& e) {
    const std::string msg = e.what();
    BOOST_TEST(msg.find("stp>5%") != std::string::npos, msg);
    BOOST_TEST(msg.find("unknown metric") != std::string::npos, msg);
  }
}

BOOST_AUTO_TEST_CASE(glob_matching) {
  using analysis::glob_match;
  BOOST_TEST(glob_match("*gemm*", "sm80_xmma_gemm_f32"));
  BOOST_TEST(glob_match("aten::*", "aten::mm"));
  BOOST_TEST(!glob_match("aten::*", "xaten::mm"));
  BOOST_TEST(glob_match("aten::m?", "aten::mm"));
  BOOST_TEST(!glob_match("aten::m?", "aten::mm_"));
  BOOST_TEST(glob_match("*", ""));
  BOOST_TEST(glob_match("a*b*c", "aXXbYYbc"));
  BOOST_TEST(!glob_match("a*b*c", "aXXbYYb"));
  BOOST_TEST(glob_match("x\\*y", "x*y"));
  BOOST_TEST(!glob_match("x\\*y", "xzy"));
  BOOST_TEST(glob_match("aten::mm", "aten::mm"));
  BOOST_TEST(!glob_match("aten::mm", "aten::mmx"));
  // fnmatch's own rules that are not the documented ones: '[' is literal, so is a
  // trailing backslash; '*' crosses '/' and a leading '.'; a NUL in a name is a byte.
  BOOST_TEST(glob_match("x[0]*", "x[0]y"));
  BOOST_TEST(!glob_match("x[0]*", "x0y"));
  BOOST_TEST(glob_match("x[*", "x[abc"));
  BOOST_TEST(glob_match("a\\", "a\\"));
  BOOST_TEST(glob_match("a\\\\", "a\\"));
  BOOST_TEST(glob_match("*c", "a/.b/c"));
  BOOST_TEST(glob_match(".*", ".x"));
  BOOST_TEST(!glob_match("AT*", "aten::mm"));
  using namespace std::string_view_literals;
  BOOST_TEST(glob_match("nul?x", "nul\0x"sv));
  BOOST_TEST(glob_match("nul*", "nul\0x"sv));
  BOOST_TEST(!glob_match("nul", "nul\0x"sv));
  BOOST_TEST(!glob_match("nul\x01x", "nul\0x"sv));
  BOOST_TEST(glob_match("\xE6\xBC?\xE5*", "\xE6\xBC\xA2\xE5\xAD\x97"));
}

BOOST_AUTO_TEST_CASE(step_time_and_gpu_busy) {
  const auto r = report();
  const auto res = eval("step_time>+5%", r);
  BOOST_TEST(evaluated(res));
  BOOST_TEST(res.fired());
  BOOST_TEST(res.detail == "step time +12.3% (77.5 ms \xE2\x86\x92 87.0 ms per step)", res.detail);
  BOOST_TEST(!fires("step_time>+15%"));
  BOOST_TEST(fires("step_time>9ms"));
  BOOST_TEST(!fires("step_time>10ms"));
  BOOST_TEST(fires("step_time>=9.5ms"));
  BOOST_TEST(!fires("step_time<0%"));
  BOOST_TEST(eval("step_time>+9ms", r).detail == "step time +9.50 ms (77.5 ms \xE2\x86\x92 87.0 ms per step)");

  BOOST_TEST(fires("gpu_busy>+1%"));
  BOOST_TEST(!fires("gpu_busy>+3%"));
  BOOST_TEST(fires("gpu_busy>=1ms"));

  // Nothing to measure: not evaluated, does not fire.
  auto whole = report();
  whole.headline.clear();
  const auto w = eval("step_time>+5%", whole);
  BOOST_TEST(!evaluated(w));
  BOOST_TEST(!w.fired());
  auto cpu_only = report();
  cpu_only.headline.pop_back();
  BOOST_TEST(!evaluated(eval("gpu_busy>+1%", cpu_only)));
}

BOOST_AUTO_TEST_CASE(ops_and_kernels) {
  const auto r = report();
  const auto mm = eval("op:aten::mm>+10%", r);
  BOOST_TEST(mm.fired());
  BOOST_TEST(mm.detail == "aten::mm +15.0% (1.00 ms \xE2\x86\x92 1.15 ms per step)", mm.detail);
  BOOST_TEST(!fires("op:aten::mm>+20%"));
  BOOST_TEST(fires("op:aten::add<-4%"));
  BOOST_TEST(!fires("op:aten::add<-6%"));
  // op: is CPU rows only; kernel: GPU rows only.
  BOOST_TEST(!evaluated(eval("optional:op:*gemm*>0", r)));
  BOOST_TEST(!evaluated(eval("optional:kernel:aten::mm>0", r)));

  // A glob sums its rows: the two GEMMs gain 2.5 ms together (14 ms -> 16.5 ms).
  const auto gemm = eval("kernel:*gemm*>+2ms", r);
  BOOST_TEST(gemm.fired());
  BOOST_TEST(gemm.detail.find("2 GPU rows matching '*gemm*' +2.50 ms (14.0 ms \xE2\x86\x92 16.5 ms per step)") == 0u, gemm.detail);
  BOOST_TEST(!fires("kernel:*gemm*>+3ms"));
  BOOST_TEST(fires("kernel:*gemm*>+17%"));   // +17.9%
  BOOST_TEST(!fires("kernel:*gemm*>+18%"));

  // any-kernel: each row on its own (1.5 ms and 1 ms; 0.5 ms new).
  BOOST_TEST(fires("any-kernel:*gemm*>+1.2ms"));
  BOOST_TEST(!fires("any-kernel:*gemm*>+2ms"));
  const auto each = eval("any-kernel:*>+20%", r);
  BOOST_TEST(each.fired());
  BOOST_TEST(each.detail.find("2 of 4 GPU rows") == 0u, each.detail);  // cutlass +25%, new_kernel new
  BOOST_TEST(fires("any-op:aten::*<-1%"));

  // From nothing to something is an infinite relative change.
  BOOST_TEST(fires("kernel:new_kernel>+1000%"));
  BOOST_TEST(eval("kernel:new_kernel>+1000%", r).detail.find("new") != std::string::npos);

  // A name that matches nothing: a usage error, unless the condition says optional:.
  BOOST_CHECK_THROW(eval("op:aten::mn>+1%", r), UsageError);
  BOOST_CHECK_THROW(eval("any-kernel:nothing*>+1%", r), UsageError);
  const auto typo = eval("optional:op:aten::mn>+1%", r);
  BOOST_TEST(!evaluated(typo));
  BOOST_TEST(!typo.fired());
  BOOST_TEST(typo.detail.find("aten::mn") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(time_conditions_fire_only_on_significant_changes) {
  auto r = report();
  // aten::mm +15 %, but within noise: past the threshold, does not fire.
  r.rows[0].significant = false;
  r.rows[0].verdict = model::Verdict::same;
  const auto noisy = eval("any-op:aten::mm>+10%", r);
  BOOST_TEST((noisy.outcome == GateOutcome::within_noise));
  BOOST_TEST(noisy.detail.find("within noise") != std::string::npos, noisy.detail);
  BOOST_TEST(fires("raw:any-op:aten::mm>+10%", r));
  // A sum is judged on its summed samples: make aten::mm's test steps overlap control's.
  r.rows[0].test_samples = model::Samples::dense({1'000'000, 1'300'000, 990'000, 1'310'000, 1'005'000, 1'295'000});
  BOOST_TEST((eval("op:aten::mm>+10%", r).outcome == GateOutcome::within_noise));
  BOOST_TEST(fires("raw:op:aten::mm>+10%", r));
  // Not testable: not evaluated (a warning), never fired; raw: decides on the threshold.
  r.headline[0].value.significant = false;
  r.headline[0].value.verdict = model::Verdict::untestable;
  const auto one_step = eval("step_time>+5%", r);
  BOOST_TEST((one_step.outcome == GateOutcome::not_evaluated));
  BOOST_TEST(one_step.detail.find("not testable") != std::string::npos, one_step.detail);
  BOOST_TEST(fires("raw:step_time>+5%", r));
  // Below the threshold it passes whatever the verdict.
  BOOST_TEST((eval("step_time>+50%", r).outcome == GateOutcome::passed));
}

BOOST_AUTO_TEST_CASE(the_heading_never_calls_unmeasured_conditions_passed) {
  auto r = report();
  const auto heading = [&](std::vector<std::string> exprs) {
    std::vector<GateCondition> conds;
    for (const auto& e : exprs) conds.push_back(parse_gate_condition(e));
    return analysis::gate_heading(analysis::evaluate_gate(conds, r));
  };
  BOOST_TEST(heading({"step_time>+5%", "added>5"}) == "Gate failed: 1 of 2 --fail-on conditions hold");
  BOOST_TEST(heading({"added>5"}) == "Gate passed: none of 1 --fail-on conditions holds");
  r.headline[0].value.significant = false;
  r.headline[0].value.verdict = model::Verdict::untestable;
  BOOST_TEST(heading({"step_time>+5%", "added>5"}) ==
             "Gate passed, but 1 of 2 --fail-on conditions were not evaluated");
  BOOST_TEST(heading({"step_time>+5%", "optional:op:nothing>1%"}) ==
             "Gate not evaluated: none of 2 --fail-on conditions could be measured");
  BOOST_TEST(analysis::gate_heading({}).empty());
}

BOOST_AUTO_TEST_CASE(qualifiers) {
  auto c = parse_gate_condition("raw:any-kernel:*>+2%");
  BOOST_TEST(c.raw);
  BOOST_TEST(!c.optional);
  BOOST_TEST(c.pattern == "*");
  c = parse_gate_condition("optional: raw: kernel:foo*>1ms");
  BOOST_TEST(c.raw);
  BOOST_TEST(c.optional);
  BOOST_TEST(c.pattern == "foo*");
  BOOST_CHECK_THROW(parse_gate_condition("raw:raw:step_time>5%"), UsageError);
  BOOST_CHECK_THROW(parse_gate_condition("raw:"), UsageError);
}

BOOST_AUTO_TEST_CASE(totals_in_hta_compat) {
  auto r = report();
  r.hta_compat = true;
  for (auto& row : r.rows) {
    row.per_step_basis = false;
    row.control_step = row.test_step = {};
  }
  const auto mm = eval("op:aten::mm>+10%", r);
  BOOST_TEST(mm.fired());
  BOOST_TEST(mm.detail.find("in total") != std::string::npos, mm.detail);
}

BOOST_AUTO_TEST_CASE(group_sizes) {
  const auto r = report();
  const auto added = eval("added>0", r);
  BOOST_TEST(added.fired());
  BOOST_TEST(added.detail == "1 added (new_kernel)", added.detail);
  BOOST_TEST(!fires("deleted>0"));
  BOOST_TEST(fires("deleted<1"));
  BOOST_TEST(!fires("added>1"));
  BOOST_TEST(fires("added>=1"));
  BOOST_TEST(!fires("increased>0"));
}

BOOST_AUTO_TEST_CASE(kernel_families) {
  const auto c = parse_gate_condition("family:gemm>+5%");
  BOOST_TEST((c.metric == GateMetric::family));
  BOOST_TEST(c.pattern == "gemm");
  BOOST_TEST((c.unit == GateUnit::percent));
  BOOST_TEST(parse_gate_condition("family:all_reduce>+1ms").threshold == 1e6);
  for (const char* id : {"moe", "sort", "sampling"})  // the families of issue 25, from the same table
    BOOST_TEST(parse_gate_condition(std::string("family:") + id + ">+5%").pattern == id);
  BOOST_CHECK_THROW(parse_gate_condition("family:GEMM>+5%"), UsageError);  // ids are lower case
  BOOST_CHECK_THROW(parse_gate_condition("family:>+5%"), UsageError);
  try {
    parse_gate_condition("family:matmul>+5%");
    BOOST_FAIL("no usage error");
  } catch (const UsageError& e) {
    const std::string what = e.what();
    BOOST_TEST(what.find("unknown kernel family 'matmul'") != std::string::npos, what);
    BOOST_TEST(what.find("gemm, convolution, attention") != std::string::npos, what);
    BOOST_TEST(what.find("memcpy_htod") != std::string::npos, what);
    BOOST_TEST(what.find("moe") != std::string::npos, what);
  }

  auto r = report();
  model::FamilyRow gemm;
  gemm.id = "gemm";
  gemm.label = "GEMM";
  gemm.time = figure("gemm", 14'000'000, 16'500'000).value;  // +17.9 %, significant
  gemm.kernels = 2;
  r.families.push_back(gemm);
  const auto g = eval("family:gemm>+5%", r);
  BOOST_TEST(g.fired());
  BOOST_TEST(g.detail.find("GEMM kernels +17.9%") == 0u, g.detail);
  BOOST_TEST(!fires("family:gemm>+20%", r));
  BOOST_TEST(fires("family:gemm>+2ms", r));
  // Past the threshold but within noise: does not fire.
  r.families[0].time.significant = false;
  r.families[0].time.verdict = model::Verdict::same;
  BOOST_TEST((eval("family:gemm>+5%", r).outcome == GateOutcome::within_noise));
  BOOST_TEST(eval("raw:family:gemm>+5%", r).fired());
  // A family with no work on either side is not evaluated, and no error.
  const auto none = eval("family:attention>+5%", r);
  BOOST_TEST(!evaluated(none));
  BOOST_TEST(none.detail.find("Attention") != std::string::npos, none.detail);
}

BOOST_AUTO_TEST_CASE(one_result_per_condition_in_order) {
  std::vector<GateCondition> conds = {parse_gate_condition("step_time>+5%"), parse_gate_condition("added>5"),
                                      parse_gate_condition("optional:op:none>1%")};
  const auto results = analysis::evaluate_gate(conds, report());
  BOOST_REQUIRE(results.size() == 3u);
  BOOST_TEST(results[0].fired());
  BOOST_TEST(!results[1].fired());
  BOOST_TEST(evaluated(results[1]));
  BOOST_TEST(!evaluated(results[2]));
  for (std::size_t i = 0; i < 3; ++i) BOOST_TEST(results[i].condition.text == conds[i].text);
}

BOOST_AUTO_TEST_CASE(hostile_names_reach_stderr_without_control_bytes) {
  auto r = report();
  r.rows[0].name = r.rows[0].full_name = "aten::mm\x1b[2J\x07";
  const auto res = eval("op:aten::mm*>+10%", r);
  BOOST_TEST(res.fired());
  BOOST_TEST(res.detail.find('\x1b') == std::string::npos);
  BOOST_TEST(res.detail.find('\x07') == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
