// Read right the first time (generated traces with known effects): calls apart from
// time, one Δ (the medians' the verdict judges) with one slow step, algorithm swaps at
// constant family time, folding in lists that nothing could test, and the profiler's own
// work left out.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <string>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

std::map<std::string, json::object> rows_by_name(const json::object& j, const std::string& category = "") {
  std::map<std::string, json::object> out;
  for (const auto& v : j.at("rows").as_array()) {
    const auto& r = v.as_object();
    if (category.empty() || r.at("category").as_string() == category) out[std::string(r.at("name").as_string())] = r;
  }
  return out;
}

bool listed(const json::object& j, const char* list, const std::string& name) {
  for (const auto& v : j.at(list).as_array())
    if (v.at("name").as_string() == name) return true;
  return false;
}

double num(const json::value& v) { return v.is_double() ? v.as_double() : static_cast<double>(v.as_int64()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(reading)

// Every row: the Δ the lists print (the medians') splits into a part from the number of
// calls and a part from the time per call, and the two add up to it.
BOOST_AUTO_TEST_CASE(calls_apart_from_time) {
  const auto c = tracegen("rd-calls-c", {"--ranks", "1", "--steps", "8", "--jitter", "1"});
  const auto t = tracegen("rd-calls-t", {"--ranks", "1", "--steps", "8", "--jitter", "1", "--seed", "3",
                                         "--extra-launches", "12", "--slowdown", "aten::mm=1.3"});
  const auto j = report_json(c, t);
  std::size_t checked = 0;
  for (const auto& v : j.at("rows").as_array()) {
    const auto& r = v.as_object();
    const double d = num(r.at("test_median_per_step_us")) - num(r.at("control_median_per_step_us"));
    const double sum = num(r.at("diff_from_calls_us")) + num(r.at("diff_from_per_call_us"));
    BOOST_TEST(std::fabs(sum - d) <= 0.002 + 1e-9 * std::fabs(d), r.at("name").as_string() << ": " << sum << " vs " << d);
    ++checked;
  }
  BOOST_TEST(checked > 50u);
  // The add kernel ran 12 more small launches a step: more calls, each shorter on
  // average: "more calls", never "slower".
  bool add = false;
  for (const auto& [name, r] : rows_by_name(j, "kernel")) {
    if (name.find("CUDAFunctor_add") == std::string::npos) continue;
    add = true;
    BOOST_TEST(num(r.at("test_count_per_step")) > num(r.at("control_count_per_step")));
    BOOST_TEST(r.at("verdict").as_string() == "slower");
    BOOST_TEST(r.at("by_calls").as_bool());
    BOOST_TEST(r.at("words").as_string() == "more calls");
    BOOST_TEST(num(r.at("per_call_pct")) < 0.0);
    BOOST_TEST(num(r.at("diff_from_calls_us")) > num(r.at("median_diff_per_step_us")));
    BOOST_TEST(num(r.at("diff_from_per_call_us")) < 0.0);
  }
  BOOST_TEST(add);
  // aten::mm: as many calls, each 30 % longer: "slower", all of it per call.
  const auto cpu = rows_by_name(j, "cpu_op");
  const auto& mm = cpu.at("aten::mm");
  BOOST_TEST(mm.at("words").as_string() == "slower");
  BOOST_TEST(!mm.at("by_calls").as_bool());
  BOOST_TEST(std::fabs(num(mm.at("diff_from_calls_us"))) < 1e-6);
  // The human views show calls and the change per call.
  const auto md = run_cli({c, t, "--markdown", "-", "-q"});
  BOOST_TEST(md.out.find("| Calls | Per call |") != std::string::npos, md.out);
  BOOST_TEST(md.out.find("\xE2\x96\xB2 calls |") != std::string::npos, md.out);
  const auto term = run_cli({c, t, "-o", temp_dir("rd-calls") + "/r.html"});
  BOOST_TEST(term.out.find(" per call") != std::string::npos, term.out);
  BOOST_TEST(term.out.find("\xE2\x96\xB2 calls") != std::string::npos, term.out);
}

// One step 12 times as long on the test side, aten::mm 30 % slower in every step: the
// lists print and rank by the medians' Δ (what the verdict judged), with the means' beside,
// the wrappers of aten::mm fold into it, and the slow step is named.
BOOST_AUTO_TEST_CASE(one_delta_with_a_slow_step) {
  const auto c = tracegen("rd-slow-c", {"--ranks", "1", "--steps", "6", "--jitter", "1"});
  const auto t = tracegen("rd-slow-t", {"--ranks", "1", "--steps", "6", "--jitter", "1", "--slowdown", "aten::mm=1.3",
                                        "--slow-step", "4=12"});
  const auto j = report_json(c, t);
  const auto& top = j.at("top_regressions").as_array();
  BOOST_REQUIRE(!top.empty());
  const auto& first = top[0].as_object();
  BOOST_TEST(first.at("name").as_string() == "aten::mm");
  const auto& shown = first.at("shown").as_object();
  BOOST_TEST(shown.at("basis").as_string() == "median_per_step");
  // Each step's mm is 30 % longer: the medians' Δ is about 30 %, the means' far more.
  BOOST_TEST(num(shown.at("diff_pct")) > 25.0);
  BOOST_TEST(num(shown.at("diff_pct")) < 35.0);
  BOOST_TEST(shown.at("mean_differs").as_bool());
  BOOST_TEST(num(first.at("diff_per_step_us")) > 3 * num(shown.at("diff_us")));
  // Folded: evaluate_function: AddmmBackward0 and AddmmBackward0 say nothing aten::mm does not.
  BOOST_TEST(!listed(j, "top_regressions", "AddmmBackward0"));
  BOOST_TEST(j.at("top_counts").at("regressions").at("folded").as_int64() >= 2);
  // The lists are in the medians' order.
  double last = 1e300;
  for (const auto& v : top) {
    const double d = std::fabs(num(v.at("shown").at("diff_us")));
    BOOST_TEST(d <= last);
    last = d;
  }
  // The step far from the others is named.
  bool named = false;
  for (const auto& n : j.at("notes").as_array())
    named = named || n.as_string().find("step 4 took") != json::string::npos;
  BOOST_TEST(named);
  // The terminal prints the medians and the means beside them.
  const auto term = run_cli({c, t, "-o", temp_dir("rd-slow") + "/r.html"});
  BOOST_TEST(term.out.find("Regressions (median per step)") != std::string::npos, term.out);
  BOOST_TEST(term.out.find("      mean +") != std::string::npos, term.out);
}

// cuBLAS picks another algorithm for half of the layers: per-kernel rows move both ways
// while GEMM stays the same. One note, no list filled with the swap, no verdict red.
BOOST_AUTO_TEST_CASE(algorithm_swap_at_constant_family_time) {
  const auto c = tracegen("rd-swap-c", {"--ranks", "1", "--steps", "8", "--layers", "12", "--jitter", "2",
                                        "--algo-swap", "25"});
  const auto t = tracegen("rd-swap-t", {"--ranks", "1", "--steps", "8", "--layers", "12", "--jitter", "2",
                                        "--algo-swap", "75", "--seed", "2"});
  const auto j = report_json(c, t);
  for (const auto& v : j.at("families").as_array())
    if (v.at("family").as_string() == "gemm") BOOST_TEST(v.at("verdict").as_string() == "same");
  std::size_t swapped = 0;
  for (const auto& [name, r] : rows_by_name(j, "kernel")) {
    if (!r.contains("swapped")) continue;
    ++swapped;
    BOOST_TEST(r.at("family").as_string() == "gemm");
    BOOST_TEST(!listed(j, "top_regressions", name));
    BOOST_TEST(!listed(j, "top_improvements", name));
    // The moves come from the number of calls, not from slower or faster calls.
    BOOST_TEST(r.at("by_calls").as_bool(), name);
  }
  BOOST_TEST(swapped == 6u);
  const auto& counts = j.at("top_counts").as_object();
  BOOST_TEST(counts.at("regressions").at("swapped").as_int64() + counts.at("improvements").at("swapped").as_int64() == 6);
  std::string note;
  for (const auto& n : j.at("notes").as_array())
    if (n.as_string().starts_with("Algorithm swaps: 3 kernels")) note = std::string(n.as_string());
  BOOST_TEST(!note.empty());
  // The note says the family's change as the family table does, never "stayed the same".
  BOOST_TEST(note.find("stayed the same") == std::string::npos, note);
  BOOST_TEST(note.find("GEMM ") != std::string::npos, note);
  BOOST_TEST(note.find("same within noise") != std::string::npos, note);
  BOOST_TEST(j.at("verdict").at("mark").as_string() == "neutral");
  BOOST_TEST(j.at("verdict").at("regressions").as_int64() == 0);
}

// One step a side: nothing is testable, and the raw lists fold one change along its
// stack as the judged lists do: aten::mm once, not once per caller.
BOOST_AUTO_TEST_CASE(untestable_lists_fold_too) {
  const auto c = tracegen("rd-raw-c", {"--ranks", "1", "--steps", "1"});
  const auto t = tracegen("rd-raw-t", {"--ranks", "1", "--steps", "1", "--slowdown", "aten::mm=2"});
  const auto j = report_json(c, t);
  BOOST_TEST(j.at("top_counts").at("regressions").at("raw").as_bool());
  BOOST_TEST(listed(j, "top_regressions", "aten::mm"));
  BOOST_TEST(!listed(j, "top_regressions", "AddmmBackward0"));
  BOOST_TEST(!listed(j, "top_regressions", "autograd::engine::evaluate_function: AddmmBackward0"));
  BOOST_TEST(j.at("top_counts").at("regressions").at("folded").as_int64() >= 2);
  BOOST_TEST(j.at("verdict").at("mark").as_string() == "neutral");
  BOOST_TEST(j.at("verdict").at("line").as_string().find("not testable") != json::string::npos);
}

// The profiler's own work (its Python frames, the device synchronisation that stops it)
// is no row, and one note counts it; whole traces, where it falls inside what is compared.
BOOST_AUTO_TEST_CASE(the_profilers_own_work_is_left_out) {
  const auto trace = [](long stop_sync_us) {
    return trace_json({x_event("cpu_op", "aten::mm", 1, 1, 100, 50),
                       x_event("cpu_op", "aten::relu", 1, 1, 200, 20),
                       x_event("python_function", "torch/profiler/profiler.py(723): step", 1, 1, 300, 40),
                       x_event("cpu_op", "aten::empty", 1, 1, 310, 5),
                       x_event("cuda_runtime", "cudaDeviceSynchronize", 1, 1, 400, stop_sync_us)});
  };
  const auto dir = temp_dir("rd-profiler");
  write_file(dir + "/c.json", trace(10));
  write_file(dir + "/t.json", trace(5000));
  const auto j = report_json(dir + "/c.json", dir + "/t.json");
  const auto rows = rows_by_name(j);
  BOOST_TEST(rows.count("aten::mm") == 1u);
  BOOST_TEST(rows.count("cudaDeviceSynchronize") == 0u);
  BOOST_TEST(rows.count("aten::empty") == 0u);
  BOOST_TEST(rows.count("torch/profiler/profiler.py(723): step") == 0u);
  bool note = false;
  for (const auto& n : j.at("notes").as_array())
    note = note || n.as_string().starts_with("The profiler's own work is left out");
  BOOST_TEST(note);
  // A synchronisation of the program's own (inside an operator) stays.
  write_file(dir + "/c2.json", trace_json({x_event("cpu_op", "aten::item", 1, 1, 100, 50),
                                           x_event("cuda_runtime", "cudaDeviceSynchronize", 1, 1, 110, 30),
                                           x_event("cpu_op", "aten::relu", 1, 1, 200, 20)}));
  const auto own = rows_by_name(report_json(dir + "/c2.json", dir + "/c2.json"));
  BOOST_TEST(own.count("cudaDeviceSynchronize") == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
