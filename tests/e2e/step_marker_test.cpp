// --step-marker: traces without ProfilerStep, whose iterations are marked by
// annotations or operators, compare per step (docs/is-it-real.md, "Step markers"). On the
// generator's two loop shapes (tools/tracegen --marker-loop, --no-profiler-step):
// marker steps against the same simulation's ProfilerStep steps, a slowdown found
// through them, bad patterns refused before reading, a marker that matches nothing,
// the outermost of nested matches, and summaries that keep the marker.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

json::object compare_json(std::vector<std::string> args) { return report_json(std::move(args)); }

double num(const json::value& v) { return v.is_null() ? NAN : v.to_number<double>(); }

const json::object* row(const json::object& j, const std::string& name) {
  for (const auto& v : j.at("rows").as_array())
    if (v.at("name").as_string() == name) return &v.as_object();
  return nullptr;
}

const json::object& figure(const json::object& j, const std::string& id) {
  for (const auto& v : j.at("headline").as_array())
    if (v.at("figure").as_string() == id) return v.as_object();
  BOOST_FAIL("no headline figure " + id);
  throw;
}

const json::object& only_marker(const json::object& side) {
  BOOST_REQUIRE(side.contains("step_markers"));
  const auto& m = side.at("step_markers").as_array();
  BOOST_REQUIRE_EQUAL(m.size(), 1u);
  return m[0].as_object();
}

bool has_note(const json::object& j, const std::string& text) {
  for (const auto& n : j.at("notes").as_array())
    if (std::string(n.as_string()).find(text) != std::string::npos) return true;
  return false;
}

constexpr const char* k_decode = "step\\[DECODE";
constexpr const char* k_optimizer = "Optimizer\\.step#SGD\\.step";

}  // namespace

BOOST_AUTO_TEST_SUITE(step_marker)

// Inference: each step[DECODE bs=32] span covers its iteration (as long as its
// ProfilerStep span), so the marker's steps are ProfilerStep's to the ns. Only two
// figures may differ, by design: with ProfilerStep, the decode span is an ordinary
// annotation (a row, and host time that covers the step); as the marker, it is the
// step itself, as ProfilerStep spans are (no row, no busy time of its own).
BOOST_AUTO_TEST_CASE(inference_spans_give_profiler_steps_figures) {
  const std::vector<std::string> common = {"--ranks", "2", "--steps", "8", "--marker-loop", "infer", "--jitter", "3"};
  auto with_ps = common;
  auto without = common;
  without.push_back("--no-profiler-step");
  const auto c = tracegen("marker-infer-ps", with_ps);
  const auto t = tracegen("marker-infer", without);
  const auto j = compare_json({c, t, "--test-step-marker", k_decode});

  const auto& m = only_marker(j.at("test").as_object());
  BOOST_TEST(m.at("shape").as_string() == "spans");
  BOOST_TEST(m.at("matches").to_number<int>() == 16);  // 8 a rank
  BOOST_TEST(m.at("steps").to_number<int>() == 16);
  BOOST_TEST(!j.at("control").as_object().contains("step_markers"));
  BOOST_TEST(j.at("unit").as_string() == "step");
  BOOST_TEST(j.at("control").at("step_time_us").at("count").to_number<int>() == 16);
  BOOST_TEST(j.at("test").at("step_time_us").at("count").to_number<int>() == 16);
  BOOST_TEST(has_note(j, "Test: steps from the step marker 'step\\[DECODE': 16 spans in 2 files, each a step."));

  for (const auto& f : j.at("headline").as_array()) {
    const std::string id(f.at("figure").as_string());
    if (id == "host_busy") {
      BOOST_TEST(num(f.at("test")) <= num(f.at("control")));
      continue;
    }
    BOOST_TEST(num(f.at("control")) == num(f.at("test")), id);
  }
  std::size_t compared = 0;
  for (const auto& v : j.at("rows").as_array()) {
    const auto& r = v.as_object();
    if (r.at("name").as_string() == "step[DECODE bs=32]") {
      BOOST_TEST(num(r.at("test_count_per_step")) == 0);  // the step, not a row
      continue;
    }
    BOOST_TEST(num(r.at("control_per_step_us")) == num(r.at("test_per_step_us")), r.at("name").as_string());
    BOOST_TEST(num(r.at("control_count_per_step")) == num(r.at("test_count_per_step")), r.at("name").as_string());
    BOOST_TEST(num(r.at("control_self_us")) == num(r.at("test_self_us")), r.at("name").as_string());
    ++compared;
  }
  BOOST_TEST(compared >= 20u);
  // The marker wins over ProfilerStep when given: the same steps from the trace that has both.
  const auto both = compare_json({c, t, "--step-marker", k_decode});
  BOOST_TEST(figure(both, "host_busy").at("control") == figure(both, "host_busy").at("test"));
  BOOST_TEST(!row(both, "step[DECODE bs=32]"));
  BOOST_TEST(only_marker(both.at("control").as_object()).at("steps").to_number<int>() == 16);
}

// Training: only Optimizer.step#SGD.step, short and near the end of each iteration,
// marks it. A step runs from one marker to the next: N iterations give N - 1 steps,
// each the tail of one iteration and the head of the next. Every operator still runs
// once per step, and the step's figures stay those of an iteration: the step time
// gains the 40 µs between ProfilerStep spans (prof.step()'s gap, 3-4 % of an
// iteration), and means over 11 steps against 12 differ by the generator's ±4 %
// per-event variation, averaged. Within 5 %, then; a step boundary in the wrong
// place (a step of two iterations, or of half of one) is off by 50 % or more.
BOOST_AUTO_TEST_CASE(training_markers_give_profiler_steps_figures) {
  const std::vector<std::string> common = {"--ranks", "1", "--steps", "12", "--marker-loop", "train"};
  auto without = common;
  without.push_back("--no-profiler-step");
  const auto c = tracegen("marker-train-ps", common);
  const auto t = tracegen("marker-train", without);
  const auto j = compare_json({c, t, "--test-step-marker", k_optimizer});

  const auto& m = only_marker(j.at("test").as_object());
  BOOST_TEST(m.at("shape").as_string() == "markers");
  BOOST_TEST(m.at("matches").to_number<int>() == 12);
  BOOST_TEST(m.at("steps").to_number<int>() == 11);
  BOOST_TEST(j.at("test").at("step_time_us").at("count").to_number<int>() == 11);
  BOOST_TEST(j.at("control").at("step_time_us").at("count").to_number<int>() == 12);
  BOOST_TEST(has_note(j, "Test: steps from the step marker 'Optimizer\\.step#SGD\\.step': 12 markers, a step from "
                         "each to the next (11 steps)."));
  for (const char* id : {"step_time", "gpu_work", "cpu_self", "host_busy"}) {
    const auto& f = figure(j, id);
    BOOST_TEST(std::abs(num(f.at("test")) / num(f.at("control")) - 1) < 0.05, id << ": " << f);
  }
  // As markers, the matches stay ordinary events inside the step.
  const auto* opt = row(j, "Optimizer.step#SGD.step");
  BOOST_REQUIRE(opt);
  BOOST_TEST(num(opt->at("test_count_per_step")) == 1);
  // Every operator of every iteration: once per step on both sides.
  std::size_t every_step = 0;
  for (const auto& v : j.at("rows").as_array()) {
    const auto& r = v.as_object();
    if (r.at("category").as_string() != "cpu_op" || num(r.at("control_count_per_step")) != 1) continue;
    BOOST_TEST(num(r.at("test_count_per_step")) == 1, r.at("name").as_string());
    ++every_step;
  }
  BOOST_TEST(every_step >= 10u);
}

// A 30 % slower GEMM on the test side is found through marker steps, in both shapes,
// and the gate fires on it; the same traces against themselves show nothing.
BOOST_AUTO_TEST_CASE(slowdown_is_significant_through_marker_steps) {
  for (const std::string loop : {"train", "infer"}) {
    const std::vector<std::string> common = {"--ranks", "1", "--steps", "10", "--marker-loop", loop,
                                             "--no-profiler-step", "--jitter", "3"};
    auto slow = common;
    slow.insert(slow.end(), {"--slowdown", "aten::addmm=1.3", "--seed", "2"});
    auto base = common;
    base.insert(base.end(), {"--seed", "1"});
    const auto c = tracegen("marker-slow-c", base);
    const auto t = tracegen("marker-slow-t", slow);
    const std::string pattern = loop == "train" ? k_optimizer : k_decode;
    const auto j = compare_json({c, t, "--step-marker", pattern});
    const auto* mm = row(j, "aten::addmm");
    BOOST_REQUIRE(mm);
    BOOST_TEST(mm->at("verdict").as_string() == "slower", loop);
    BOOST_TEST(mm->at("significant").as_bool(), loop);
    const auto gate = run_cli({c, t, "--step-marker", pattern, "--fail-on", "op:aten::addmm>+10%", "-q", "--json",
                               temp_dir("marker-gate") + "/g.json"});
    BOOST_TEST(gate.exit_code == 3, loop << ": " << gate.err);
    // Without the marker both sides are compared whole: one unit a side, nothing testable.
    const auto whole = compare_json({c, t});
    BOOST_TEST(whole.at("unit").as_string() == "trace");
    BOOST_TEST(row(whole, "aten::addmm")->at("verdict").as_string() == "untestable");
    const auto aa = compare_json({c, c, "--step-marker", pattern});
    std::size_t flagged = 0;
    for (const auto& v : aa.at("rows").as_array()) flagged += v.at("significant").as_bool();
    BOOST_TEST(flagged == 0u, loop);
  }
}

// Warm-up detection and step selection work on marker steps as on ProfilerStep: a
// warm-up first iteration is left out (and said), and --*-iteration picks marker steps
// by their numbers (0, 1, ...), which then keeps the warm-up step as ProfilerStep's do.
BOOST_AUTO_TEST_CASE(warmup_and_selection_on_marker_steps) {
  const auto c = tracegen("marker-warm", {"--ranks", "2", "--steps", "8", "--marker-loop", "infer", "--no-profiler-step",
                                          "--warmup-steps", "1"});
  const auto j = compare_json({c, c, "--step-marker", k_decode});
  const auto& warm = j.at("steps").at("test").at("warmup").as_array();
  BOOST_REQUIRE_EQUAL(warm.size(), 2u);  // one a rank
  BOOST_TEST(warm[0].at("step").to_number<int>() == 0);
  BOOST_TEST(j.at("steps").at("test").at("count").to_number<int>() == 14);
  BOOST_TEST(has_note(j, "Warm-up steps left out of Test"));
  const auto picked = compare_json({c, c, "--step-marker", k_decode, "--test-iteration", "0-3"});
  BOOST_TEST(picked.at("test").at("iterations") == json::parse("[0, 1, 2, 3]"));
  BOOST_TEST(picked.at("steps").at("test").at("count").to_number<int>() == 8);
  BOOST_TEST(picked.at("steps").at("test").at("warmup").as_array().empty());
  const auto r = run_cli({c, c, "--step-marker", k_decode, "--test-iteration", "8", "-q", "--json", "-"});
  BOOST_TEST(r.exit_code == 2, r.err);  // a step the marker did not make
}

// A pattern that does not compile, for either option, is a usage error naming the
// option, before anything is read (the inputs here do not exist: reading would be exit 1).
BOOST_AUTO_TEST_CASE(invalid_pattern_is_a_usage_error_before_reading) {
  const auto dir = temp_dir("marker-usage");
  const std::string missing = dir + "/missing";
  for (const auto& [option, pattern] : std::vector<std::pair<std::string, std::string>>{
           {"--step-marker", "step[DECODE"}, {"--control-step-marker", "(unclosed"},
           {"--test-step-marker", "*x"}, {"--step-marker", ""}}) {
    const auto r = run_cli({missing, missing, option, pattern});
    BOOST_TEST(r.exit_code == 2, option << " " << pattern << ": " << r.err);
    BOOST_TEST(r.err.find("tracediff: error: " + option + ":") != std::string::npos, r.err);
  }
  const auto s = run_cli({"summarize", missing, "-o", dir + "/s.tdsum.json", "--step-marker", "a{2,1}"});
  BOOST_TEST(s.exit_code == 2, s.err);
  BOOST_TEST(s.err.find("--step-marker") != std::string::npos, s.err);
  // --hta-compat reads steps as HTA does.
  const auto hta = run_cli({missing, missing, "--hta-compat", "--step-marker", "x"});
  BOOST_TEST(hta.exit_code == 2, hta.err);
  BOOST_TEST(hta.err.find("--hta-compat") != std::string::npos, hta.err);
}

// A marker that matches nothing in a file: a warning naming the file, then what the
// file gives without it (ProfilerStep, else the whole trace). A whole side against a
// stepped one is then refused (docs/is-it-real.md, "Step markers").
BOOST_AUTO_TEST_CASE(marker_that_matches_nothing_warns_and_falls_back) {
  const auto plain = tracegen("marker-none", {"--ranks", "1", "--steps", "4", "--no-profiler-step"});
  const auto with_ps = tracegen("marker-none-ps", {"--ranks", "1", "--steps", "4"});
  for (const auto& [dir, fallback, whole] : {std::tuple{plain, "it is compared whole", true},
                                             std::tuple{with_ps, "its steps are its ProfilerStep spans", false}}) {
    const auto r = run_cli({dir, dir, "--step-marker", "no such name", "--json", "-"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const bool warned =
        r.err.find(": " + dir + "/rank0.pt.trace.json: --step-marker 'no such name' matches no host event") !=
        std::string::npos;
    BOOST_TEST(warned, r.err);
    BOOST_TEST(r.err.find("tracediff: warning: ") != std::string::npos, r.err);
    BOOST_TEST(r.err.find(fallback) != std::string::npos, r.err);
    const auto j = parse_json(r.out).as_object();
    BOOST_TEST(j.at("control").at("whole_trace").as_bool() == whole);
    BOOST_TEST(j.at("test").at("whole_trace").as_bool() == whole);
    if (!whole) BOOST_TEST(j.at("test").at("step_time_us").at("count").to_number<int>() == 4);
    BOOST_TEST(!j.at("control").as_object().contains("step_markers"));
    BOOST_TEST(j.at("diagnostics").at("counts").at("step_marker_no_step").to_number<int>() == 2);  // each side's
  }
  const auto mixed = run_cli({plain, with_ps, "--step-marker", "no such name", "--json", "-"});
  BOOST_TEST(mixed.exit_code == 1, mixed.err);
  BOOST_TEST(mixed.err.find("cannot be compared with whole traces") != std::string::npos, mixed.err);
}

// Nested matches: the outermost is the step (here a Python frame, with the same name
// inside it and an annotation that also matches); the inner ones are neither steps nor
// rows. Steps are numbered 0, 1, ... per process, in time order.
BOOST_AUTO_TEST_CASE(outermost_of_nested_matches_and_python_frames) {
  const auto dir = temp_dir("marker-nested");
  std::vector<std::string> events;
  for (int i = 0; i < 6; ++i) {
    const long t = 1000 + i * 1000;
    events.push_back(x_event("python_function", "runner.py(10): execute_model", 1, 1, t, 900));
    events.push_back(x_event("python_function", "runner.py(10): execute_model", 1, 1, t + 10, 800));
    events.push_back(x_event("user_annotation", "execute_model: inner", 1, 1, t + 20, 700));
    events.push_back(x_event("cpu_op", "aten::mm", 1, 1, t + 30, 100));
  }
  write_file(dir + "/rank0.json", trace_json(events));
  const auto j = compare_json({dir + "/rank0.json", dir + "/rank0.json", "--step-marker", "execute_model"});
  const auto& m = only_marker(j.at("test").as_object());
  BOOST_TEST(m.at("shape").as_string() == "spans");
  BOOST_TEST(m.at("matches").to_number<int>() == 6);
  BOOST_TEST(j.at("test").at("available_iterations") == json::parse("[0, 1, 2, 3, 4, 5]"));
  BOOST_TEST(num(figure(j, "step_time").at("test")) == 900);
  BOOST_TEST(j.at("rows").as_array().size() == 1u);  // aten::mm only
  BOOST_TEST(row(j, "aten::mm"));
  BOOST_TEST(num(row(j, "aten::mm")->at("test_count_per_step")) == 1);
}

// `tracediff summarize --step-marker` keeps the marker's steps and says so; the
// summary then compares exactly as the traces do with the marker.
BOOST_AUTO_TEST_CASE(summarize_with_a_marker_round_trips) {
  const auto c = tracegen("marker-sum-c", {"--ranks", "2", "--steps", "6", "--marker-loop", "train",
                                           "--no-profiler-step", "--seed", "1"});
  const auto t = tracegen("marker-sum-t", {"--ranks", "2", "--steps", "6", "--marker-loop", "train",
                                           "--no-profiler-step", "--seed", "2"});
  const auto dir = temp_dir("marker-sum");
  const auto summary = dir + "/c.tdsum.json";
  const auto s = run_cli({"summarize", c, "-o", summary, "--step-marker", k_optimizer});
  BOOST_REQUIRE_MESSAGE(s.exit_code == 0, s.err);
  const auto text = read_file(summary);
  BOOST_TEST(text.find("\"step_marker\": {\"pattern\": \"Optimizer\\\\.step#SGD\\\\.step\", \"shape\": \"markers\", "
                       "\"matches\": 6}") != std::string::npos);
  const auto from_traces = compare_json({c, t, "--step-marker", k_optimizer});
  const auto from_summary = compare_json({summary, t, "--test-step-marker", k_optimizer});
  BOOST_TEST(from_traces.at("rows") == from_summary.at("rows"));
  BOOST_TEST(from_traces.at("headline") == from_summary.at("headline"));
  BOOST_TEST(from_traces.at("notes") == from_summary.at("notes"));
  BOOST_TEST(from_summary.at("control").at("step_markers") == from_traces.at("control").at("step_markers"));
  BOOST_TEST(has_note(from_summary, "Control: steps from the step marker 'Optimizer\\.step#SGD\\.step': 12 markers in "
                                    "2 files, a step from each to the next (10 steps)."));
  // A summary's steps are made: a marker for its side is refused, before reading.
  const auto refused = run_cli({summary, t, "--step-marker", k_optimizer});
  BOOST_TEST(refused.exit_code == 2, refused.err);
  BOOST_TEST(refused.err.find("is a summary") != std::string::npos, refused.err);
  // The field is checked like the rest of a summary.
  auto bad = text;
  const std::string shape = "\"shape\": \"markers\"";
  bad.replace(bad.find(shape), shape.size(), "\"shape\": \"sideways\"");
  write_file(dir + "/bad.tdsum.json", bad);
  const auto refused_bad = run_cli({dir + "/bad.tdsum.json", t, "-q", "--json", dir + "/x.json"});
  BOOST_TEST(refused_bad.exit_code == 1, refused_bad.err);
  BOOST_TEST(refused_bad.err.find("step_marker.shape \"sideways\" is not spans or markers") != std::string::npos,
             refused_bad.err);
  // Written again from the summary (merge reads and writes it): the same bytes.
  const auto merged = dir + "/m.tdsum.json";
  const auto m = run_cli({"merge", summary, "-o", merged});
  BOOST_REQUIRE_MESSAGE(m.exit_code == 0, m.err);
  BOOST_TEST(read_file(merged) == text);
}

// A trace without ProfilerStep whose loop is marked by a label once an iteration: a note
// suggests the marker, and the marker it suggests gives the trace its steps.
BOOST_AUTO_TEST_CASE(a_repeating_label_is_suggested_as_the_marker) {
  const auto dir = tracegen("sm-hint", {"--no-profiler-step", "--loader-on-main", "2", "--warmup-steps", "1", "--ranks", "1",
                                        "--steps", "6"});
  const auto whole = report_json(dir, dir);
  std::string note;
  for (const auto& n : whole.at("notes").as_array())
    if (n.as_string().find("no ProfilerStep, but") != std::string::npos) note = std::string(n.as_string());
  const auto at = note.find("--step-marker '");
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, note);
  const auto from = at + std::string("--step-marker '").size();
  const std::string pattern = note.substr(from, note.find('\'', from) - from);
  BOOST_TEST(note.find("repeats 6 times") != std::string::npos, note);
  // Not the data loader's label: its spans, half of each iteration, would become the steps
  // and leave the work out.
  BOOST_TEST(pattern.find("DataLoader") == std::string::npos, pattern);
  const auto stepped = report_json(dir, dir, {"--step-marker", pattern, "--keep-warmup"});
  BOOST_TEST(!stepped.at("control").at("whole_trace").as_bool());
  BOOST_TEST(stepped.at("control").at("available_iterations").as_array().size() >= 5u);
  for (const auto& n : stepped.at("notes").as_array()) BOOST_TEST(n.as_string().find("no ProfilerStep, but") == std::string::npos);
  // The steps it makes hold most of the GPU work.
  const auto& gpu = stepped.at("control").at("accounting").at("gpu").as_object();
  BOOST_TEST(gpu.at("rows").at("events").as_int64() * 2 > gpu.at("read").at("events").as_int64());
  // A real trace without steps and without such a label gets no suggestion.
  const auto alexnet = trace_path("formats/alexnet-no-steps.json.gz");
  const auto plain = report_json(alexnet, alexnet);
  for (const auto& n : plain.at("notes").as_array())
    BOOST_TEST(n.as_string().find("no ProfilerStep, but") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(step_marker_hostile)

// A pattern that backtracks (quadratic or worse on a long name) against thousands of
// long distinct names, and names far past the length that is matched: bounded time,
// no crash, the same outputs each run. Each name is asked once; names over 512 bytes
// never match; a match the engine gives up on counts as none, and after 16 of those in
// a file its other names are not asked (a warning counts them).
BOOST_AUTO_TEST_CASE(backtracking_patterns_on_long_names_are_bounded) {
  const auto dir = temp_dir("marker-hostile");
  std::vector<std::string> events;
  for (int i = 0; i < 20000; ++i) {
    std::string name(i % 2 ? 500 : 1000, 'a');
    name += std::to_string(i);
    events.push_back(x_event("user_annotation", name, 1, 1, 10 * i, 5));
  }
  events.push_back(x_event("user_annotation", std::string(200'000, 'a') + "c", 1, 1, 300000, 5));
  events.push_back(x_event("user_annotation", "aac", 1, 1, 400000, 5));
  events.push_back(x_event("cpu_op", "aten::mm", 1, 1, 400001, 2));
  write_file(dir + "/t.json", trace_json(events));
  for (const std::string pattern : {"(a|a)*c", "(a*)*c", ".*.*.*c", "^(a+)+c$", "a.*a.*a.*a.*x"}) {
    const auto m = run_measured({dir + "/t.json", dir + "/t.json", "--step-marker", pattern, "--json",
                                 dir + "/out.json", "-q", "-j", "1"},
                                dir);
    BOOST_TEST(m.exit_code == 0, pattern << ": " << m.err);
    // Unbounded, each of the 10,000 names under 512 bytes costs 2-15 ms: 20 s or more
    // (five times that under AddressSanitizer, which slows the bounded run as much).
#if defined(__SANITIZE_ADDRESS__)
    constexpr double bound_s = 10.0;
#else
    constexpr double bound_s = 2.0;
#endif
    BOOST_TEST(m.cpu_seconds < bound_s, pattern << ": " << m.cpu_seconds << " s");
    const auto j = parse_json(read_file(dir + "/out.json")).as_object();
    BOOST_TEST(j.at("diagnostics").at("counts").as_object().contains("step_marker_gave_up"), pattern);
    BOOST_TEST(j.at("control").at("whole_trace").as_bool(), pattern);  // "aac" was never asked
  }
  // The plain patterns people write stay cheap on the same names, and find the one step.
  const auto j = compare_json({dir + "/t.json", dir + "/t.json", "--step-marker", "^a+c$"});
  BOOST_TEST(only_marker(j.at("test").as_object()).at("matches").to_number<int>() == 1);
}

BOOST_AUTO_TEST_SUITE_END()
