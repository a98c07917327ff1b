#include <boost/test/unit_test.hpp>

#include "analysis/compare.hpp"
#include "analysis/compare/aggregate.hpp"
#include "analysis/summarize/step_assignment.hpp"
#include "reading/trace_reader.hpp"
#include "support/test_support.hpp"
#include "util/errors.hpp"

using namespace tracediff;
using model::Change;

namespace {

model::TraceFile file_of(const std::string& json, int rank = 0, bool hta = false) {
  reading::ByteSource src{std::string_view(json)};
  reading::ReadOptions options;
  options.hta_compat = hta;
  auto r = reading::read_trace(src, "t" + std::to_string(rank) + ".json", options);
  BOOST_REQUIRE(!r.skipped);
  r.file.rank = rank;
  return std::move(r.file);
}

model::TraceSet set_of(std::string label, std::vector<std::string> jsons, bool hta = false) {
  model::TraceSet s;
  s.label = std::move(label);
  int rank = 0;
  for (auto& j : jsons) s.files.push_back(file_of(j, rank++, hta));
  return s;
}

std::string ev(const char* cat, const char* name, int pid, int tid, long ts, long dur, long corr = -1) {
  return test::x_event(cat, name, pid, tid, ts, dur, corr);
}

std::string trace(const std::vector<std::string>& events) { return test::trace_json(events); }

// Two steps on pid 1; a backward op on another thread of the same process; a
// kernel that runs during step 2 but was launched in step 1.
const std::string k_trace = trace({
    ev("user_annotation", "ProfilerStep#1", 1, 1, 0, 100),
    ev("user_annotation", "ProfilerStep#2", 1, 1, 100, 100),
    ev("cpu_op", "aten::mm", 1, 1, 10, 20),
    ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 15, 5, 7),
    ev("cpu_op", "aten::mm", 1, 2, 120, 30),  // other thread, step 2
    ev("kernel", "gemm", 0, 7, 150, 40, 7),   // GPU time in step 2, launch in step 1
    ev("cpu_op", "late", 1, 1, 250, 5),       // after the last step
    ev("kernel", "orphan", 0, 7, 160, 1, 99), // no launch record: the step it ran in
    ev("kernel", "stray", 0, 7, 260, 1, 98),  // no launch record, after the last step
});

}  // namespace

namespace {

// Each event's step number (k_no_step: none), as the steps say.
std::vector<std::int64_t> iterations(const analysis::detail::FileSteps& s) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < s.step_at.size(); ++i) out.push_back(s.iteration(i));
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compare)

BOOST_AUTO_TEST_CASE(iterations_follow_process_and_launch) {
  const auto f = file_of(k_trace);
  const auto s = analysis::detail::assign_steps(f, analysis::detail::LaunchIndex(f));
  BOOST_TEST(s.host_steps.size() == 2u);
  const std::vector<std::int64_t> expected = {1, 2, 1, 1, 2, 1, -1, 2, -1};
  BOOST_TEST(iterations(s) == expected, boost::test_tools::per_element());
  BOOST_TEST(s.gpu_unlinked == 2u);
  BOOST_TEST(s.gpu_unplaced == 1u);
}

BOOST_AUTO_TEST_CASE(profiler_step_names) {
  using analysis::detail::profiler_step_number;
  BOOST_TEST(*profiler_step_number("ProfilerStep#1009") == 1009);
  BOOST_TEST(*profiler_step_number("ProfilerStep # 7") == 7);
  BOOST_TEST(!profiler_step_number("ProfilerStep#"));
  BOOST_TEST(!profiler_step_number("ProfilerStep#3 x"));
  BOOST_TEST(!profiler_step_number("MyProfilerStep#3"));
}

BOOST_AUTO_TEST_CASE(ops_diff_rules) {
  using analysis::detail::change_of;
  BOOST_TEST((change_of(0, 3) == Change::added));
  BOOST_TEST((change_of(3, 0) == Change::deleted));
  BOOST_TEST((change_of(2, 3) == Change::increased));
  BOOST_TEST((change_of(3, 2) == Change::decreased));
  BOOST_TEST((change_of(3, 3) == Change::unchanged));
}

BOOST_AUTO_TEST_CASE(default_mode_rows_steps_and_groups) {
  const auto control = set_of("Control", {k_trace});
  const auto test = set_of("Test", {trace({
      ev("user_annotation", "ProfilerStep#1", 1, 1, 0, 150),
      ev("cpu_op", "aten::mm", 1, 1, 10, 60),
      ev("cpu_op", "aten::mm", 1, 1, 80, 60),
      ev("cpu_op", "aten::new", 1, 1, 145, 2),
  })});
  const auto r = analysis::compare_traces(control, test, {});
  BOOST_TEST(r.control.iterations == (std::vector<std::int64_t>{1, 2}), boost::test_tools::per_element());
  BOOST_TEST(r.control.step_times.steps.size() == 2u);
  BOOST_TEST(r.test.step_times.mean_ns == 150000);
  // Rows are ordered by |Δ duration|; ProfilerStep is not a row.
  BOOST_REQUIRE(!r.rows.empty());
  BOOST_TEST(r.rows[0].name == "aten::mm");
  BOOST_TEST(r.rows[0].control.count == 2u);
  BOOST_TEST(r.rows[0].test.count == 2u);
  BOOST_TEST(r.rows[0].diff_ns() == 120000 - 50000);
  BOOST_TEST((r.rows[0].change == Change::increased));  // 1 call per step -> 2 per step
  for (const auto& row : r.rows) BOOST_TEST(row.name.find("ProfilerStep") == std::string::npos);
  BOOST_TEST(r.ops_diff.of(Change::added) == (std::vector<std::string>{"aten::new"}),
             boost::test_tools::per_element());
  std::size_t grouped = 0;
  for (const auto& g : r.ops_diff.groups) grouped += g.size();
  BOOST_TEST(grouped == r.rows.size());  // the groups partition the rows
}

BOOST_AUTO_TEST_CASE(device_filter_and_category_key) {
  const auto control = set_of("Control", {k_trace});
  analysis::CompareOptions gpu;
  gpu.device = analysis::DeviceFilter::gpu;
  const auto r = analysis::compare_traces(control, control, gpu);
  // gemm, and the orphan that ran in step 2 (the stray after the last step has none).
  BOOST_REQUIRE(r.rows.size() == 2u);
  BOOST_TEST(r.rows[0].category == "kernel");
  BOOST_TEST(r.control.gpu_total.total_ns == 41000);
}

BOOST_AUTO_TEST_CASE(unknown_selection_is_a_usage_error) {
  const auto control = set_of("Control", {k_trace});
  analysis::CompareOptions o;
  o.control.iterations = std::vector<std::int64_t>{5};
  BOOST_CHECK_THROW(analysis::compare_traces(control, control, o), UsageError);
  o = {};
  o.test.ranks = std::vector<int>{4};
  BOOST_CHECK_THROW(analysis::compare_traces(control, control, o), UsageError);
}

BOOST_AUTO_TEST_CASE(traces_without_steps_are_compared_whole) {
  const auto s = set_of("Control", {trace({ev("cpu_op", "a", 1, 1, 0, 10), ev("cpu_op", "b", 1, 1, 20, 10)})});
  const auto r = analysis::compare_traces(s, s, {});
  BOOST_TEST(r.control.whole_trace);
  BOOST_TEST(r.rows.size() == 2u);
  BOOST_TEST(r.unit == "trace");
  // The same traces; both sides compared whole; one trace a side without a rank (rank 0,
  // said once); not testable; no memory recorded.
  BOOST_REQUIRE(r.notes.size() == 5u);
  BOOST_TEST(r.notes[4].find("No memory figures: neither side") == 0u);
  BOOST_TEST(r.notes[0].find("Both sides are the same traces") == 0u);
  BOOST_TEST(r.notes[1].find("compared whole, figures are per trace") != std::string::npos);
  BOOST_TEST(r.notes[2] == "Each side is one trace without a rank: both are taken as rank 0.");
  BOOST_TEST(r.notes[3].find("Not testable") == 0u);
  const auto h = set_of("Control", {trace({ev("cpu_op", "a", 1, 1, 0, 10)})}, true);
  analysis::CompareOptions hta;
  hta.hta_compat = true;  // HTA refuses such traces
  BOOST_CHECK_THROW(analysis::compare_traces(h, h, hta), Fatal);
}

BOOST_AUTO_TEST_SUITE_END()
