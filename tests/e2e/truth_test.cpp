// The story a report tells, on generated traces with the pathologies of real ones
// (tools/tracegen): noise that must not be called real, changes that must, warm-up
// steps, sides with one step, different rank counts, different GPUs, a GPU queue
// that backs up. docs/is-it-real.md and docs/reading-the-report.md.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

json::object compare_json(std::vector<std::string> args) {
  args.insert(args.end(), {"--json", "-", "-q"});
  const auto r = run_cli(args);
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return parse_json(r.out).as_object();
}

double num(const json::value& v) { return v.is_null() ? NAN : v.to_number<double>(); }

const json::object* row(const json::object& j, const std::string& name) {
  for (const auto& v : j.at("rows").as_array())
    if (v.at("name").as_string() == name) return &v.as_object();
  return nullptr;
}

const json::object* figure(const json::object& j, const std::string& id) {
  for (const auto& v : j.at("headline").as_array())
    if (v.at("figure").as_string() == id) return &v.as_object();
  return nullptr;
}

std::size_t significant(const json::object& j) {
  std::size_t n = 0;
  for (const auto& v : j.at("rows").as_array()) n += v.at("significant").as_bool();
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(truth)

// docs/is-it-real.md: on A/A pairs with jitter, at most 1 % of rows are flagged
// (none, with the default --min-change); the rank test alone flags about its level.
BOOST_AUTO_TEST_CASE(a_a_pairs_flag_at_most_one_percent_of_rows) {
  std::size_t rows = 0, flagged = 0, flagged_no_threshold = 0, figures = 0, figures_flagged = 0;
  for (int seed = 1; seed <= 15; ++seed) {
    const std::vector<std::string> common = {"--ranks", "2", "--steps", "4", "--layers", "8", "--jitter", "5"};
    auto ca = common, ta = common;
    ca.insert(ca.end(), {"--seed", std::to_string(seed)});
    ta.insert(ta.end(), {"--seed", std::to_string(seed + 100)});
    const auto c = tracegen("aa-c", ca);
    const auto t = tracegen("aa-t", ta);
    const auto j = compare_json({c, t});
    rows += j.at("rows").as_array().size();
    flagged += significant(j);
    flagged_no_threshold += significant(compare_json({c, t, "--min-change", "0%"}));
    for (const auto& f : j.at("breakdown").as_array()) {
      ++figures;
      figures_flagged += f.at("significant").as_bool();
    }
  }
  BOOST_TEST(rows >= 1000u);
  BOOST_TEST(flagged * 100 <= rows, flagged << " of " << rows);
  // The step figures too (about 150 tests at the 1 % level: one or two by chance).
  BOOST_TEST(figures_flagged * 100 <= figures * 2, figures_flagged << " of " << figures);
  BOOST_TEST(flagged_no_threshold * 100 <= rows * 2, flagged_no_threshold << " of " << rows);
}

// A 10 % slowdown over 8 steps is found, in several seeds.
BOOST_AUTO_TEST_CASE(ten_percent_over_eight_steps_is_found) {
  for (int seed = 1; seed <= 3; ++seed) {
    const std::vector<std::string> common = {"--ranks", "1", "--steps", "8", "--layers", "8", "--jitter", "5"};
    auto ca = common, ta = common;
    ca.insert(ca.end(), {"--seed", std::to_string(seed)});
    ta.insert(ta.end(), {"--seed", std::to_string(seed + 100), "--slowdown", "aten::mm=1.1", "--slowdown",
                         "ampere_sgemm=1.3"});
    const auto j = compare_json({tracegen("ten-c", ca), tracegen("ten-t", ta)});
    const auto* mm = row(j, "aten::mm");
    BOOST_REQUIRE(mm);
    BOOST_TEST(mm->at("verdict").as_string() == "slower", "seed " << seed);
    // And it leads the decided list of regressions.
    bool listed = false;
    for (const auto& v : j.at("top_regressions").as_array()) listed = listed || v.at("name").as_string() == "aten::mm";
    BOOST_TEST(listed);
    // The launchers that moved: significant ones only, largest |Δ per step| first.
    const auto& launchers = j.at("by_launcher").as_array();
    double previous = INFINITY;
    for (const auto& name : j.at("top_launchers").as_array()) {
      const auto it = std::find_if(launchers.begin(), launchers.end(),
                                   [&](const json::value& l) { return l.at("launcher") == name; });
      BOOST_REQUIRE(it != launchers.end());
      BOOST_TEST(it->at("significant").as_bool());
      const double d = std::abs(num(it->at("test_per_step_us")) - num(it->at("control_per_step_us")));
      BOOST_TEST(d <= previous);
      previous = d;
    }
    BOOST_TEST(!j.at("top_launchers").as_array().empty());
  }
}

// Two consecutive iterations of one run: one step a side can show no real change,
// however large; every verdict is "not testable", and the lists say so.
BOOST_AUTO_TEST_CASE(one_step_per_side_is_never_real) {
  const auto c = tracegen("one-c", {"--ranks", "1", "--steps", "1", "--seed", "1", "--jitter", "5"});
  const auto t = tracegen("one-t", {"--ranks", "1", "--steps", "1", "--seed", "2", "--jitter", "5",
                                    "--slowdown", "aten::mm=2"});
  const auto j = compare_json({c, t});
  BOOST_TEST(significant(j) == 0u);
  for (const auto& v : j.at("rows").as_array())
    if (v.at("diff_per_step_us").to_number<double>() != 0)
      BOOST_TEST(v.at("verdict").as_string() == "untestable", v.at("name").as_string());
  for (const auto& f : j.at("headline").as_array()) BOOST_TEST(f.at("verdict").as_string() == "untestable");
  BOOST_TEST(j.at("top_counts").at("regressions").at("raw").as_bool());
  BOOST_TEST(!j.at("top_regressions").as_array().empty());  // the largest raw changes, marked
  bool said = false;
  for (const auto& n : j.at("notes").as_array()) said = said || n.as_string().find("Not testable") == 0;
  BOOST_TEST(said);
  // The terminal says it too, and never "slower".
  const auto r = run_cli({c, t, "--csv", "/dev/null"});
  BOOST_TEST(r.out.find("not testable") != std::string::npos, r.out);
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    BOOST_TEST(!line.ends_with("\xE2\x96\xB2"), line);  // no row or figure marked ▲ (slower)
}

// 8 ranks against 4 of the same job: per-step figures agree, the per-step headline
// has no change, and the sides-differ banner names the rank count.
BOOST_AUTO_TEST_CASE(different_rank_counts_compare_per_step) {
  const auto c = tracegen("ranks-c", {"--ranks", "8", "--steps", "4", "--seed", "1"});
  const auto t = tracegen("ranks-t", {"--ranks", "4", "--steps", "4", "--seed", "1"});
  const auto j = compare_json({c, t});
  const auto* step = figure(j, "step_time");
  BOOST_REQUIRE(step);
  BOOST_TEST(std::abs(num(step->at("diff_pct"))) < 5.0);
  BOOST_TEST(step->at("verdict").as_string() == "same");
  const auto* busy = figure(j, "gpu_busy");
  BOOST_REQUIRE(busy);
  BOOST_TEST(busy->at("verdict").as_string() == "same");
  bool ranks = false;
  for (const auto& d : j.at("sides_differ").as_array())
    ranks = ranks || (d.at("what").as_string() == "Ranks compared" && d.at("control").as_string() == "8" &&
                      d.at("test").as_string() == "4");
  BOOST_TEST(ranks);
  // No figure is a raw sum over the ranks: nothing lost 50 %.
  for (const auto& f : j.at("headline").as_array()) BOOST_TEST(!f.at("significant").as_bool(), f.at("figure").as_string());
}

// A first step 10x slower than the others (warm-up) is left out of every figure and
// verdict, and said; every test step above every control step is then "slower",
// with a mean change close to the true one.
BOOST_AUTO_TEST_CASE(warm_up_is_found_left_out_and_said) {
  const auto c = tracegen("warm-c", {"--ranks", "1", "--steps", "8", "--seed", "1", "--jitter", "2"});
  const auto t = tracegen("warm-t", {"--ranks", "1", "--steps", "9", "--seed", "2", "--jitter", "2",
                                     "--warmup-steps", "1", "--warmup-factor", "20", "--slowdown", "aten::=1.5"});
  const auto j = compare_json({c, t});
  const auto& warm = j.at("steps").at("test").at("warmup").as_array();
  BOOST_REQUIRE(warm.size() == 1u);
  BOOST_TEST(warm[0].at("step").as_int64() == 1);
  BOOST_TEST(j.at("steps").at("test").at("count").as_int64() == 8);  // timed: the other eight
  BOOST_TEST(j.at("steps").at("control").at("warmup").as_array().empty());
  const auto* step = figure(j, "step_time");
  BOOST_REQUIRE(step);
  BOOST_TEST(step->at("verdict").as_string() == "slower");
  BOOST_TEST(num(step->at("diff_pct")) < 100.0);  // with the warm-up in the mean it would be several times that
  bool said = false;
  for (const auto& n : j.at("notes").as_array()) said = said || n.as_string().find("warm-up step left out of Test") != std::string::npos;
  BOOST_TEST(said, json::serialize(j.at("notes")));
  // --keep-warmup keeps it, and the mean then overstates the change.
  const auto kept = compare_json({c, t, "--keep-warmup"});
  BOOST_TEST(kept.at("steps").at("test").at("warmup").as_array().empty());
  BOOST_TEST(num(figure(kept, "step_time")->at("diff_pct")) > 2 * num(step->at("diff_pct")));
}

// with_stack traces: _call_impl nests in itself. No name takes more inclusive time
// per step than the step lasts on one thread (two threads run operators here).
BOOST_AUTO_TEST_CASE(self_nesting_python_frames_never_exceed_the_step) {
  const auto c = tracegen("py-c", {"--ranks", "1", "--steps", "6", "--seed", "1", "--python-stack"});
  const auto j = compare_json({c, c});
  const double step = num(figure(j, "step_time")->at("control"));
  bool saw_call_impl = false;
  for (const auto& v : j.at("rows").as_array()) {
    const std::string name(v.at("name").as_string());
    saw_call_impl = saw_call_impl || name.find("_call_impl") != std::string::npos;
    if (v.at("device").as_string() == "cpu")
      BOOST_TEST(num(v.at("control_per_step_us")) <= 2 * step, name);
    if (name.find("_call_impl") != std::string::npos) BOOST_TEST(num(v.at("control_per_step_us")) <= step, name);
  }
  BOOST_TEST(saw_call_impl);
  // Self times add up to at most the host busy time; busy at most steps x 2 threads.
  double self = 0;
  for (const auto& v : j.at("rows").as_array())
    if (v.at("device").as_string() == "cpu") self += num(v.at("control_self_per_step_us"));
  const double busy = num(figure(j, "host_busy")->at("control"));
  BOOST_TEST(self <= busy * 1.0001 + 1);
  BOOST_TEST(busy <= 2 * step);
}

// PyTorch <= 1.8: ProfilerStep#N is a cpu_op. It is the step, not an operator.
BOOST_AUTO_TEST_CASE(legacy_profiler_step_operators) {
  const auto c = tracegen("legacy-c", {"--ranks", "1", "--steps", "6", "--seed", "1", "--legacy-steps"});
  const auto j = compare_json({c, c});
  BOOST_TEST(j.at("steps").at("control").at("count").as_int64() == 6);
  for (const auto& v : j.at("rows").as_array())
    BOOST_TEST(v.at("name").as_string().find("ProfilerStep") == json::string::npos);
  const auto& mean = j.at("steps").at("control").at("mean").as_object();
  BOOST_TEST(num(mean.at("cpu_self_us")) < num(mean.at("step_us")));
  // The same workload written the modern way has the same CPU self time.
  const auto m = compare_json({tracegen("modern-c", {"--ranks", "1", "--steps", "6", "--seed", "1"}), c});
  BOOST_TEST(num(figure(m, "cpu_self")->at("diff")) == 0);
}

// An A100 job of 8 ranks against a V100 job of 2: the banner says so first.
BOOST_AUTO_TEST_CASE(sides_on_different_gpus_are_said) {
  const auto c = tracegen("gpu-c", {"--ranks", "8", "--steps", "2", "--seed", "1", "--gpus", "8", "--cuda-runtime",
                                    "12040"});
  const auto t = tracegen("gpu-t", {"--ranks", "2", "--steps", "2", "--seed", "1", "--gpu-name",
                                    "Tesla V100-SXM2-16GB", "--gpus", "2", "--cuda-runtime", "11080", "--cuda-graphs",
                                    "--compile"});
  const auto j = compare_json({c, t});
  std::map<std::string, std::pair<std::string, std::string>> d;
  for (const auto& v : j.at("sides_differ").as_array())
    d[std::string(v.at("what").as_string())] = {std::string(v.at("control").as_string()),
                                                std::string(v.at("test").as_string())};
  BOOST_TEST(d["GPU"].first == "NVIDIA A100-SXM4-80GB \xC3\x97 8");
  BOOST_TEST(d["GPU"].second == "Tesla V100-SXM2-16GB \xC3\x97 2");
  BOOST_TEST(d["World size"].first == "8");
  BOOST_TEST(d["World size"].second == "2");
  BOOST_TEST(d["CUDA runtime"].first == "12.4");
  BOOST_TEST(d["CUDA runtime"].second == "11.8");
  BOOST_TEST(d["CUDA graphs"].second == "used");
  BOOST_TEST(d["torch.compile"].second == "used");
  // The terminal and the Markdown say it before anything else.
  const auto r = run_cli({c, t, "--markdown", "-", "-q"});
  const auto banner = r.out.find("The sides differ");
  BOOST_TEST(banner != std::string::npos);
  BOOST_TEST(banner < r.out.find("| Step time"));
  BOOST_TEST(r.out.find("Tesla V100-SXM2-16GB") != std::string::npos);
  const auto term = run_cli({c, t, "--csv", "/dev/null"});
  BOOST_TEST(term.out.find("The sides differ: GPU NVIDIA A100-SXM4-80GB") != std::string::npos, term.out);
}

// A GPU three times slower than the CPU's launches, and no sync: the queue backs up.
// GPU busy + idle = step time x GPUs in every step, and the spill is its own figure.
BOOST_AUTO_TEST_CASE(a_gpu_queue_that_backs_up_is_said_and_adds_up) {
  const auto c = tracegen("q-c", {"--ranks", "1", "--steps", "6", "--seed", "1"});
  const auto t = tracegen("q-t", {"--ranks", "1", "--steps", "6", "--seed", "1", "--gpu-factor", "3", "--no-sync"});
  const auto j = compare_json({c, t});
  BOOST_TEST(j.at("queue_backs_up").as_bool());
  const auto* spill = figure(j, "gpu_spill");
  BOOST_REQUIRE(spill);
  BOOST_TEST(num(spill->at("test")) > num(spill->at("control")));
  for (const char* side : {"control", "test"})
    for (const auto& v : j.at("steps").at(side).at("per_step").as_array())
      BOOST_TEST(num(v.at("gpu_busy_us")) + num(v.at("gpu_idle_us")) == num(v.at("step_us")), side);
  bool said = false;
  for (const auto& n : j.at("notes").as_array()) said = said || n.as_string().find("The GPU queue backs up on Test") == 0;
  BOOST_TEST(said);
  // GPU busy is capped by the step; the work launched shows the GPU three times slower.
  const auto* work = figure(j, "gpu_work");
  BOOST_REQUIRE(work);
  BOOST_TEST(num(work->at("diff_pct")) > 150.0);
  BOOST_TEST(work->at("verdict").as_string() == "slower");
  // Idle is neither better nor worse: the views say "less", not "faster".
  const auto* idle = figure(j, "gpu_idle");
  BOOST_REQUIRE(idle);
  const auto md = run_cli({c, t, "--markdown", "-", "-q"}).out;
  BOOST_TEST(md.find("| GPU idle |") != std::string::npos);
  const auto html = run_cli({c, t, "-o", "-", "-q"}).out;
  if (idle->at("significant").as_bool()) BOOST_TEST(html.find("<div class=\"card-verdict\">less</div>") != std::string::npos);
}

// A 2-step profile whose first step is a warm-up (too few steps to leave it out),
// and an empty step: kept, and said.
BOOST_AUTO_TEST_CASE(steps_far_from_the_others_are_said) {
  const auto c = tracegen("odd-c", {"--ranks", "1", "--steps", "2", "--seed", "21", "--warmup-steps", "1"});
  const auto j = compare_json({c, c});
  bool said = false;
  for (const auto& n : j.at("notes").as_array())
    said = said || (n.as_string().find("Steps far from their rank's others on both sides") == 0 &&
                    n.as_string().find("rank 0 step 1 took") != json::string::npos);
  BOOST_TEST(said, json::serialize(j.at("notes")));
  bool same = false;
  for (const auto& n : j.at("notes").as_array()) same = same || n.as_string().find("Both sides are the same traces") == 0;
  BOOST_TEST(same);
}

// Templated kernel names that differ only in the middle get labels that differ, in
// the JSON and the Markdown alike.
BOOST_AUTO_TEST_CASE(long_names_get_labels_that_differ) {
  const auto c = tracegen("long-c", {"--ranks", "1", "--steps", "6", "--seed", "1", "--long-names", "5"});
  const auto t = tracegen("long-t", {"--ranks", "1", "--steps", "6", "--seed", "2", "--long-names", "5",
                                     "--slowdown", "cutlass=1.5"});
  const auto j = compare_json({c, t});
  std::set<std::string> labels;
  std::size_t long_rows = 0;
  for (const auto& v : j.at("rows").as_array()) {
    const std::string name(v.at("name").as_string());
    if (name.size() < 1000) continue;
    ++long_rows;
    const std::string label(v.at("label").as_string());
    BOOST_TEST(label.size() < 200u, label);
    labels.insert(label);
  }
  BOOST_TEST(long_rows >= 5u);
  BOOST_TEST(labels.size() == long_rows);
}

// Comparing a set with itself reads each file twice: each warning says its side.
BOOST_AUTO_TEST_CASE(warnings_say_which_side) {
  const auto dir = temp_dir("side-warn");
  write_file(dir + "/rank0.json", trace_json({x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 100),
                                              x_event("cpu_op", "aten::mm", 1, 1, 10, 20),
                                              R"({"ph": "X", "cat": "cpu_op", "name": "no_ts", "pid": 1, "tid": 1, "dur": 5})"}));
  const auto r = run_cli({dir, dir, "--csv", "/dev/null"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.err.find("tracediff: warning: Control: " + dir) != std::string::npos, r.err);
  BOOST_TEST(r.err.find("tracediff: warning: Test: " + dir) != std::string::npos, r.err);
}

// --categories chooses which host categories are operators: annotations and runtime
// calls can be left out of the rows; GPU rows and the step figures stay.
BOOST_AUTO_TEST_CASE(categories_choose_the_operators) {
  const auto c = tracegen("cat-c", {"--ranks", "1", "--steps", "4", "--seed", "1"});
  const auto all = compare_json({c, c});
  const auto ops = compare_json({c, c, "--categories", "cpu_op, Kernel"});
  std::set<std::string> cats_all, cats_ops;
  for (const auto& v : all.at("rows").as_array()) cats_all.insert(std::string(v.at("category").as_string()));
  for (const auto& v : ops.at("rows").as_array()) cats_ops.insert(std::string(v.at("category").as_string()));
  BOOST_TEST(cats_all.count("user_annotation"));
  BOOST_TEST(cats_all.count("cuda_runtime"));
  BOOST_TEST(!cats_ops.count("user_annotation"));
  BOOST_TEST(!cats_ops.count("cuda_runtime"));
  BOOST_TEST(cats_ops.count("cpu_op"));
  BOOST_TEST(cats_ops.count("kernel"));  // GPU rows are not host categories
  BOOST_TEST(json::serialize(all.at("breakdown")) == json::serialize(ops.at("breakdown")));
  BOOST_TEST(run_cli({c, c, "--categories", "cpu_op,,x", "--csv", "/dev/null"}).exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
