// analysis/steps with a step marker: which events make the steps, the shape chosen
// by coverage, the outermost of nested matches, per-process numbering, GPU work in
// the step of its launch, and what is left when nothing makes a step.
#include <boost/test/unit_test.hpp>

#include "analysis/summarize/step_assignment.hpp"
#include "analysis/summarize/step_marker.hpp"
#include "analysis/summarize/summarize.hpp"
#include "reading/trace_reader.hpp"
#include "support/test_support.hpp"
#include "util/errors.hpp"

using namespace tracediff;
using analysis::StepMarker;
using analysis::detail::MarkerOutcome;

namespace {

model::TraceFile file_of(const std::vector<std::string>& events) {
  const auto json = test::trace_json(events);
  reading::ByteSource src{std::string_view(json)};
  auto r = reading::read_trace(src, "t.json", {});
  BOOST_REQUIRE(!r.skipped);
  return std::move(r.file);
}

std::string ev(const char* cat, const std::string& name, int pid, long ts, long dur, long corr = -1) {
  return test::x_event(cat, name, pid, 1, ts, dur, corr);
}

// Each event's step number (k_no_step: none), as the steps say.
std::vector<std::int64_t> iterations(const analysis::detail::FileSteps& s) {
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < s.step_at.size(); ++i) out.push_back(s.iteration(i));
  return out;
}

analysis::detail::FileSteps steps_of(const model::TraceFile& f, const std::string& pattern) {
  const StepMarker marker(pattern, "--step-marker");
  return analysis::detail::assign_steps(f, analysis::detail::LaunchIndex(f), std::pmr::get_default_resource(),
                                        &marker);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(step_marker_unit)

BOOST_AUTO_TEST_CASE(patterns) {
  const StepMarker m("step\\[DECODE", "--test-step-marker");
  BOOST_TEST((m.match("step[DECODE bs=32]") == StepMarker::Match::yes));
  BOOST_TEST((m.match("xx step[DECODE") == StepMarker::Match::yes));  // anywhere in the name
  BOOST_TEST((m.match("step[PREFILL]") == StepMarker::Match::no));
  BOOST_TEST((m.match(std::string(600, 'x') + "step[DECODE") == StepMarker::Match::no));  // past 512 bytes
  BOOST_TEST((StepMarker("(a*)*c", "-").match(std::string(500, 'a')) == StepMarker::Match::gave_up));
  BOOST_CHECK_THROW(StepMarker("step[DECODE", "--step-marker"), UsageError);
  BOOST_CHECK_THROW(StepMarker("", "--step-marker"), UsageError);
  try {
    StepMarker("(x", "--control-step-marker");
  } catch (const UsageError& e) {
    BOOST_TEST(std::string(e.what()).starts_with("--control-step-marker: '(x' is not a valid regular expression"));
  }
}

// Spans that cover the work: each is a step; a nested match and a partly overlapping
// one (starting inside) are not; GPU work goes to the step of its launch.
BOOST_AUTO_TEST_CASE(spans_outermost_and_gpu_by_launch) {
  const auto f = file_of({
      ev("user_annotation", "step A", 1, 0, 100),
      ev("user_annotation", "step inner", 1, 10, 50),   // nested in step A
      ev("user_annotation", "step late", 1, 90, 40),    // starts inside step A, ends after
      ev("user_annotation", "step B", 1, 140, 100),
      ev("cpu_op", "aten::mm", 1, 20, 10),
      ev("cuda_runtime", "cudaLaunchKernel", 1, 25, 2, 7),
      ev("kernel", "gemm", 0, 150, 30, 7),  // runs in step 1, launched in step 0
      ev("cpu_op", "aten::add", 1, 150, 10),
      ev("cpu_op", "between", 1, 132, 5),   // in no step
  });
  const auto s = steps_of(f, "^step ");
  BOOST_TEST((s.marker == MarkerOutcome::spans));
  BOOST_TEST(s.marker_matches == 2u);
  BOOST_REQUIRE(s.host_steps.size() == 2u);
  BOOST_TEST(s.host_steps[0].step == 0);
  BOOST_TEST(s.host_steps[0].end_ns == 100'000);
  BOOST_TEST(s.host_steps[1].step == 1);
  const std::vector<std::int64_t> expected = {0, 0, 0, 1, 0, 0, 0, 1, -1};
  BOOST_TEST(iterations(s) == expected, boost::test_tools::per_element());
  // Every matching name is a step span then (no row), the kept ones and the others.
  BOOST_REQUIRE(!s.marker_span_name.empty());
  std::size_t span_names = 0;
  for (auto b : s.marker_span_name) span_names += b;
  BOOST_TEST(span_names == 4u);
}

// Coverage decides: spans covering half of the time from the first start to the last
// end are steps; less, and they are markers bounding the steps (N matches, N - 1 steps).
BOOST_AUTO_TEST_CASE(shape_by_coverage) {
  const auto covering = file_of({ev("user_annotation", "it", 1, 0, 50), ev("user_annotation", "it", 1, 100, 50)});
  const auto half = steps_of(covering, "it");  // 100 of 150: spans
  BOOST_TEST((half.marker == MarkerOutcome::spans));
  BOOST_TEST(half.host_steps.size() == 2u);

  const auto sparse = file_of({ev("user_annotation", "mark", 1, 0, 10), ev("user_annotation", "mark", 1, 100, 10),
                               ev("user_annotation", "mark", 1, 200, 10), ev("cpu_op", "aten::mm", 1, 150, 5)});
  const auto s = steps_of(sparse, "mark");  // 30 of 210: markers
  BOOST_TEST((s.marker == MarkerOutcome::markers));
  BOOST_TEST(s.marker_matches == 3u);
  BOOST_REQUIRE(s.host_steps.size() == 2u);
  BOOST_TEST(s.host_steps[0].begin_ns == 0);
  BOOST_TEST(s.host_steps[0].end_ns == 100'000);
  BOOST_TEST(s.host_steps[1].end_ns == 200'000);
  const std::vector<std::int64_t> expected = {0, 1, -1, 1};  // the last marker starts no step
  BOOST_TEST(iterations(s) == expected, boost::test_tools::per_element());
  BOOST_TEST(s.marker_span_name.empty());  // markers stay ordinary events
}

// Steps are numbered per process; a process without matches takes any process's.
BOOST_AUTO_TEST_CASE(numbered_per_process) {
  const auto f = file_of({ev("user_annotation", "it", 1, 0, 100), ev("user_annotation", "it", 1, 100, 100),
                          ev("user_annotation", "it", 2, 50, 100), ev("cpu_op", "a", 2, 60, 5),
                          ev("cpu_op", "b", 3, 120, 5)});
  const auto s = steps_of(f, "^it$");
  BOOST_TEST((s.marker == MarkerOutcome::spans));
  BOOST_TEST(s.host_steps.size() == 3u);
  const std::vector<std::int64_t> expected = {0, 1, 0, 0, 1};
  BOOST_TEST(iterations(s) == expected, boost::test_tools::per_element());
}

// Nothing matches, or one marker alone: no step from the marker, ProfilerStep as ever.
BOOST_AUTO_TEST_CASE(no_step_from_the_marker) {
  const auto f = file_of({ev("user_annotation", "ProfilerStep#4", 1, 0, 100), ev("cpu_op", "aten::mm", 1, 10, 5),
                          ev("cpu_op", "opt", 1, 50, 0)});
  const auto none = steps_of(f, "nothing");
  BOOST_TEST((none.marker == MarkerOutcome::no_match));
  BOOST_REQUIRE(none.host_steps.size() == 1u);
  BOOST_TEST(none.host_steps[0].step == 4);
  const auto one = steps_of(f, "^opt$");  // an instant: no time to cover, so a marker, and one makes no step
  BOOST_TEST((one.marker == MarkerOutcome::no_step));
  BOOST_TEST(one.host_steps[0].step == 4);
  // The summary keeps the warning, naming the file.
  const StepMarker marker("nothing", "--test-step-marker");
  const auto summary = analysis::summarize_file(f, {.launcher = analysis::LauncherLevel::innermost, .marker = &marker});
  BOOST_TEST(summary.has_steps);
  BOOST_TEST(summary.step_marker.empty());
  BOOST_TEST(summary.diagnostics.count(model::DiagId::step_marker_no_step) == 1u);
  std::size_t said = 0;
  for (const auto& sample : summary.diagnostics.samples()) {
    if (sample.id != model::DiagId::step_marker_no_step) continue;
    BOOST_TEST(sample.file == "t.json");
    BOOST_TEST(sample.message ==
               "--test-step-marker 'nothing' matches no host event; its steps are its ProfilerStep spans");
    ++said;
  }
  BOOST_TEST(said == 1u);
}

// A marker wins over ProfilerStep; as spans, they are steps and no rows, and the
// ProfilerStep spans stay out of the rows too.
BOOST_AUTO_TEST_CASE(marker_wins_over_profiler_step_in_the_summary) {
  const auto f = file_of({ev("user_annotation", "ProfilerStep#7", 1, 0, 300), ev("user_annotation", "decode", 1, 0, 100),
                          ev("user_annotation", "decode", 1, 100, 100), ev("user_annotation", "decode", 1, 200, 100),
                          ev("cpu_op", "aten::mm", 1, 10, 5)});
  const StepMarker marker("decode", "--step-marker");
  const auto s = analysis::summarize_file(f, {.launcher = analysis::LauncherLevel::innermost, .marker = &marker});
  BOOST_TEST(s.step_marker == "decode");
  BOOST_TEST((s.step_marker_shape == model::StepMarkerShape::spans));
  BOOST_TEST(s.step_marker_matches == 3u);
  BOOST_REQUIRE(s.steps.size() == 3u);
  BOOST_TEST(s.steps[0].step == 0);
  BOOST_TEST(s.steps[0].detail.dur_ns == 100'000);
  BOOST_REQUIRE(s.keys.size() == 1u);
  BOOST_TEST(s.keys[0].name == "aten::mm");
}

BOOST_AUTO_TEST_SUITE_END()
