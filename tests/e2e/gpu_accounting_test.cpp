// Every GPU microsecond counted, and sides that read one directory (issue #25, items 5
// and 8): GPU work whose launch the trace lacks is kept in its rows, families and "GPU
// work launched" under "(launch not recorded) stream S"; ranks 0-3 against 4-7 of one
// directory are not "the same traces", their warnings name the side that compares the
// file, a rank on one side only has no difference in JSON, and a whole trace against
// steps is refused.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <tuple>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

double num(const json::value& v) { return v.to_number<double>(); }

const json::object* find_by(const json::object& j, const char* list, const char* key, const std::string& value) {
  for (const auto& x : j.at(list).as_array())
    if (x.at(key).as_string() == value) return &x.as_object();
  return nullptr;
}

bool has_note(const json::object& j, const std::string& text) {
  for (const auto& n : j.at("notes").as_array())
    if (std::string(n.as_string()).find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(unlaunched_gpu_work)

// The same simulation twice, the layer norms' launches left out of the test side: the
// GPU work is the same, so every row, family and GPU figure of it reads the same, and
// the launcher of the unlaunched kernels carries exactly their time.
BOOST_AUTO_TEST_CASE(kept_in_rows_families_and_gpu_work_launched) {
  const std::vector<std::string> common{"--steps", "6", "--ranks", "1", "--layers", "2"};
  auto dropped = common;
  dropped.insert(dropped.end(), {"--unlaunched-kernel", "layer_norm"});
  const auto c = tracegen("unl-c", common);
  const auto t = tracegen("unl-t", dropped);
  const auto j = report_json(c, t);

  double ln_total_us = 0, ln_per_step_us = 0;
  std::uint64_t ln_calls = 0;
  for (const auto& v : j.at("rows").as_array()) {
    const auto& row = v.as_object();
    if (row.at("device").as_string() != "gpu") continue;
    BOOST_TEST(num(row.at("control_total_us")) == num(row.at("test_total_us")), row.at("name"));
    BOOST_TEST(row.at("control_count").as_int64() == row.at("test_count").as_int64(), row.at("name"));
    if (std::string(row.at("name").as_string()).find("layer_norm") == std::string::npos) continue;
    ln_total_us += num(row.at("test_total_us"));
    ln_per_step_us += num(row.at("test_per_step_us"));
    ln_calls += static_cast<std::uint64_t>(row.at("test_count").as_int64());
  }
  BOOST_TEST_REQUIRE(ln_calls > 0u);
  for (const auto& f : j.at("families").as_array())
    BOOST_TEST(num(f.at("control_per_step_us")) == num(f.at("test_per_step_us")), f.at("family"));
  const auto* work = find_by(j, "headline", "figure", "gpu_work");
  BOOST_REQUIRE(work);
  BOOST_TEST(num(work->at("control")) == num(work->at("test")));

  // The launcher per stream carries exactly the unlaunched kernels' time, and only them.
  const auto* l = find_by(j, "by_launcher", "launcher", "(launch not recorded) stream 7");
  BOOST_REQUIRE(l);
  BOOST_TEST(num(l->at("control_us")) == 0.0);
  BOOST_TEST(num(l->at("test_us")) == ln_total_us, boost::test_tools::tolerance(1e-9));
  for (const auto& k : l->at("kernels").as_array())
    BOOST_TEST(std::string(k.at("name").as_string()).find("layer_norm") != std::string::npos);
  for (const auto& v : j.at("by_launcher").as_array())
    if (v.at("launcher").as_string() != "(launch not recorded) stream 7")
      for (const auto& k : v.at("kernels").as_array())
        if (std::string(k.at("name").as_string()).find("layer_norm") != std::string::npos)
          BOOST_TEST(num(k.at("test_us")) == 0.0, v.at("launcher"));

  // The headline says how much of the step it is; a note gives its share.
  const auto* un = find_by(j, "headline", "figure", "gpu_unlaunched");
  BOOST_REQUIRE(un);
  BOOST_TEST(num(un->at("control")) == 0.0);
  BOOST_TEST(num(un->at("test")) == ln_per_step_us, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(has_note(j, "of GPU work launched on"));
  BOOST_TEST(has_note(j, "(launch not recorded) stream S\", in the step its GPU start falls in"));
  BOOST_TEST(j.at("diagnostics").at("counts").at("event_gpu_unlinked").as_int64() == static_cast<std::int64_t>(ln_calls));

  // Without the option nothing is said.
  const auto same = report_json(c, c);
  BOOST_TEST(!find_by(same, "headline", "figure", "gpu_unlaunched"));
  BOOST_TEST(!has_note(same, "launch not recorded"));
}

// A summary carries the unlaunched work: comparing it gives the traces' figures. A
// version 3 summary of such a trace (which left that work out) is refused.
BOOST_AUTO_TEST_CASE(summaries_carry_it) {
  const auto c = tracegen("unl-sum-c", {"--steps", "6", "--ranks", "1", "--layers", "2"});
  const auto t = tracegen("unl-sum-t", {"--steps", "6", "--ranks", "1", "--layers", "2", "--unlaunched-kernel", "gemm"});
  const auto dir = temp_dir("unl-sum");
  const auto sum = dir + "/t.tdsum.json";
  const auto made = run_cli({"summarize", t, "-o", sum, "-q"});
  BOOST_REQUIRE_MESSAGE(made.exit_code == 0, made.err);
  const auto from_traces = report_json(c, t);
  const auto from_summary = report_json(c, sum);
  for (const char* part : {"headline", "breakdown", "rows", "families", "by_launcher"})
    BOOST_TEST(json::serialize(from_traces.at(part)) == json::serialize(from_summary.at(part)), part);
  BOOST_TEST(find_by(from_summary, "by_launcher", "launcher", "(launch not recorded) stream 7"));

  auto v3 = read_file(sum);
  v3.replace(v3.find("\"schema_version\": 6"), 19, "\"schema_version\": 4");
  write_file(dir + "/v3.tdsum.json", v3);
  const auto old = run_cli({c, dir + "/v3.tdsum.json", "--csv", "-"});
  BOOST_TEST(old.exit_code == 1);
  BOOST_TEST(old.err.find("summarize the traces again") != std::string::npos, old.err);
}

// GPU work queued before the profiler started lands in the first step (its launch is not
// in the trace): that step is left out like a warm-up and said so, so that a kernel 64 %
// slower in every step reads slower (the old reading: "same within noise").
BOOST_AUTO_TEST_CASE(a_first_step_that_carries_unlaunched_work_is_left_out) {
  const std::vector<std::string> base = {"--first-step-backlog", "2", "--steps", "7", "--seed", "3", "--ranks", "1", "--jitter", "2"};
  auto slow = base;
  slow.insert(slow.end(), {"--slowdown", "ampere_sgemm_128x128_nt=1.64"});
  const auto j = report_json(tracegen("ga-backlog-c", base), tracegen("ga-backlog-t", slow));
  const auto* row = find_by(j, "rows", "name", "ampere_sgemm_128x128_nt");
  BOOST_REQUIRE(row);
  BOOST_TEST(row->at("verdict").as_string() == "slower");
  BOOST_TEST(num(row->at("control_count_per_step")) == 1.0);  // the queued instance is out
  BOOST_TEST(has_note(j, "rank 0 step 1 (GPU work without a recorded launch, queued before the profiler started"));
  BOOST_TEST(j.at("control").at("iterations").as_array().size() == 7u);
  BOOST_TEST(j.at("steps").at("control").at("count").as_int64() == 6);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(rank_subsets)

// Ranks 0-3 against ranks 4-7 of one directory: not the same traces; the same
// directory with the same ranks and steps is.
BOOST_AUTO_TEST_CASE(same_traces_only_for_same_files_ranks_and_steps) {
  const auto d = tracegen("sub-8", {"--ranks", "8", "--steps", "6", "--layers", "1"});
  const auto halves = report_json(d, d, {"--control-rank", "0,1,2,3", "--test-rank", "4,5,6,7"});
  BOOST_TEST(!has_note(halves, "same traces"));
  BOOST_TEST(has_note(report_json(d, d), "same traces"));
  BOOST_TEST(!has_note(report_json(d, d, {"--control-iteration", "1-3", "--test-iteration", "4-6"}), "same traces"));
}

// A rank on one side only: its row has no difference (null), not a -100 %.
BOOST_AUTO_TEST_CASE(a_rank_on_one_side_has_no_difference) {
  const auto d = tracegen("sub-3", {"--ranks", "3", "--steps", "6", "--layers", "1"});
  const auto j = report_json(d, d, {"--control-rank", "0,1", "--test-rank", "0,1,2"});
  const auto& rows = j.at("ranks").at("rows").as_array();
  BOOST_REQUIRE(rows.size() == 3u);
  const auto& last = rows[2].as_object();
  BOOST_TEST(last.at("control_rank").is_null());
  BOOST_TEST(last.at("test_rank").as_int64() == 2);
  for (const char* figure : {"step_time", "gpu_busy"}) {
    const auto& f = last.at(figure).as_object();
    BOOST_TEST(f.at("control").is_null(), figure);
    BOOST_TEST(!f.at("test").is_null(), figure);
    BOOST_TEST(f.at("diff").is_null(), figure);
    BOOST_TEST(f.at("diff_pct").is_null(), figure);
    BOOST_TEST(f.at("verdict").as_string() == "untestable", figure);
  }
  BOOST_TEST(!rows[0].at("step_time").at("diff").is_null());
}

// A warning of rank 5's file, read by both sides of one directory, is Test's: Test
// compares rank 5, Control does not; it is counted once.
BOOST_AUTO_TEST_CASE(warnings_name_the_side_that_compares_the_file) {
  const auto d = tracegen("sub-warn", {"--ranks", "8", "--steps", "6", "--layers", "1"});
  const auto path = d + "/rank5.pt.trace.json";
  const auto whole = read_file(path);
  write_file(path, whole.substr(0, whole.size() * 3 / 4));  // cut inside traceEvents
  for (const auto& [control_ranks, test_ranks, side] :
       {std::tuple{"0,1,2,3", "4,5,6,7", "Test"}, std::tuple{"4,5,6,7", "0,1,2,3", "Control"}}) {
    const auto j = report_json(d, d, {"--control-rank", control_ranks, "--test-rank", test_ranks});
    BOOST_TEST(j.at("diagnostics").at("counts").at("file_truncated").as_int64() == 1);
    std::size_t found = 0;
    for (const auto& s : j.at("diagnostics").at("samples").as_array())
      if (s.at("kind").as_string() == "file_truncated") {
        ++found;
        BOOST_TEST(s.at("side").as_string() == side);
        BOOST_TEST(std::string(s.at("file").as_string()).find("rank5") != std::string::npos);
      }
    BOOST_TEST(found == 1u);
  }
}

// A whole trace against steps: refused, with what to do, exit 1.
BOOST_AUTO_TEST_CASE(whole_trace_against_steps_is_refused) {
  const auto whole = tracegen("mix-whole", {"--ranks", "1", "--steps", "4", "--no-profiler-step"});
  const auto stepped = tracegen("mix-steps", {"--ranks", "1", "--steps", "4"});
  for (const auto& [c, t, option] : {std::tuple{whole, stepped, "--control-step-marker"},
                                     std::tuple{stepped, whole, "--test-step-marker"}}) {
    const auto r = run_cli({c, t, "--json", "-"});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.out.empty());
    BOOST_TEST(r.err.find("per-step figures cannot be compared with whole traces") != std::string::npos, r.err);
    BOOST_TEST(r.err.find(option) != std::string::npos, r.err);
  }
  // The fix it names: a marker gives the whole side its steps.
  const auto fixed = run_cli({whole, stepped, "--control-step-marker", "Optimizer.step", "--json", "-"});
  BOOST_TEST(fixed.exit_code == 0, fixed.err);
}

BOOST_AUTO_TEST_SUITE_END()
