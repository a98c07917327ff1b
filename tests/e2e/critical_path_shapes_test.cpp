// The critical path on shapes one thing bounds (issue 43, item 6): tracegen --bound writes
// each (tools/tracegen/bound_shapes.cpp, every time a whole microsecond from the step's
// start, every step the same), and each step's path is worked out here by hand from the
// model of src/analysis/summarize/critical_path.cpp:
//  - an operator's time is on its thread's chain, given at each instant to the innermost
//    operator open; one top-level operator's end to the next one's start weighs nothing
//    (Python between operators is on no path), nor does a call that waits for the GPU;
//  - a kernel's own time; from its launch's start when its stream was idle at the launch
//    (launch overhead), else from the previous kernel's end (the gap between them);
//  - the default model joins the end of the GPU work a sync waited for to the sync's
//    end; HTA's does only with the trace's cuda_sync events, which these traces lack.
// The figures are exact (JSON per_step, in us): a change of the model or of a shape
// shows here as a number, not as a share that drifted.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/wait.h>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

constexpr int k_steps = 3;

// One step's path in us, as the JSON's per_step writes it.
struct Path {
  double length = 0, cpu = 0, loading = 0, compute = 0, comm = 0, launch = 0, gaps = 0;
  std::int64_t events = 0;
};

constexpr std::array<const char*, 6> k_bounds = {"cpu_bound",       "data_loading",
                                                 "gpu_compute_bound", "gpu_communication_bound",
                                                 "gpu_kernel_launch_overhead", "gpu_kernel_kernel_overhead"};

// `tracegen --bound SHAPE`, one rank, k_steps steps (ProfilerStep#1..#3).
std::string shape(const std::string& name, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--bound", name, "--ranks", "1", "--steps", std::to_string(k_steps)};
  args.insert(args.end(), extra.begin(), extra.end());
  return tracegen("cp-shape-" + name, args);
}

// The report of CONTROL TEST with every step kept (the first is no warm-up here).
json::object report(const std::string& control, const std::string& test, std::vector<std::string> extra = {}) {
  extra.push_back("--keep-warmup");
  return report_json(control, test, extra);
}

double num(const json::value& v) { return v.to_number<double>(); }

// Every step of `side` has exactly `want`, and its largest bound type is `top`.
void check_steps(const json::object& j, const char* side, const Path& want, const char* top, const std::string& what) {
  const auto& steps = j.at("critical_path").at("per_step").at(side).as_array();
  BOOST_TEST_REQUIRE(steps.size() == static_cast<std::size_t>(k_steps), what << " " << side);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const auto& s = steps[k].as_object();
    const auto at = what + " " + side + " step " + std::to_string(k + 1);
    BOOST_TEST(s.at("rank").to_number<int>() == 0, at);
    BOOST_TEST(s.at("step").to_number<int>() == static_cast<int>(k + 1), at);
    BOOST_TEST(num(s.at("length_us")) == want.length, at);
    BOOST_TEST(num(s.at("cpu_bound")) == want.cpu, at);
    BOOST_TEST(num(s.at("data_loading")) == want.loading, at);
    BOOST_TEST(num(s.at("gpu_compute_bound")) == want.compute, at);
    BOOST_TEST(num(s.at("gpu_communication_bound")) == want.comm, at);
    BOOST_TEST(num(s.at("gpu_kernel_launch_overhead")) == want.launch, at);
    BOOST_TEST(num(s.at("gpu_kernel_kernel_overhead")) == want.gaps, at);
    BOOST_TEST(s.at("events").to_number<std::int64_t>() == want.events, at);
    // The bound types split the path: every edge with time is of one of them.
    double sum = 0;
    for (const auto* b : k_bounds) sum += num(s.at(b));
    BOOST_TEST(sum == want.length, at);
    const char* largest = k_bounds[0];
    for (const auto* b : k_bounds)
      if (num(s.at(b)) > num(s.at(largest))) largest = b;
    BOOST_TEST(std::string(largest) == top, at);
  }
}

// A shape against itself: both sides' steps are `want`, and the report names the bound.
void check_shape(const std::string& name, const Path& want, const char* top, const char* label,
                 std::vector<std::string> extra = {}, const char* model = "tracediff") {
  const auto dir = shape(name);
  const auto j = report(dir, dir, std::move(extra));
  const auto& cp = j.at("critical_path").as_object();
  BOOST_TEST_REQUIRE(cp.at("decided").as_bool(), name);
  BOOST_TEST(std::string(cp.at("model").as_string()) == model, name);
  check_steps(j, "control", want, top, name);
  check_steps(j, "test", want, top, name);
  BOOST_TEST(std::string(cp.at("control_bound").as_string()) == label, name);
  BOOST_TEST(std::string(cp.at("test_bound").as_string()) == label, name);
  BOOST_TEST(!cp.at("bound_moved").as_bool(), name);
  BOOST_TEST(num(cp.at("length").at("control")) == want.length, name);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(critical_path_shapes)

// tracegen --help lists --bound and its shapes; a shape it does not know is a usage error.
BOOST_AUTO_TEST_CASE(tracegen_help_lists_bound) {
  const auto dir = temp_dir("cp-shape-help");
  const std::string bin = std::string("'") + TRACEGEN_BINARY + "'";
  BOOST_TEST_REQUIRE(std::system((bin + " --help > '" + dir + "/help' 2>&1").c_str()) == 0);
  const auto help = read_file(dir + "/help");
  BOOST_TEST(help.find("--bound SHAPE") != std::string::npos);
  for (const char* s : {"host ", "gpu ", "launch ", "sync ", "loader "})
    BOOST_TEST(help.find(std::string("   ") + s) != std::string::npos, s);
  const auto rc = std::system((bin + " --out '" + dir + "/x' --bound nope >/dev/null 2>&1").c_str());
  BOOST_TEST((WIFEXITED(rc) && WEXITSTATUS(rc) == 2));
}

// host: per layer (4, 40 us apart) aten::linear [a, a+30] > aten::addmm [a+5, a+25] >
// cudaLaunchKernel [a+10, a+15]; the 2 us GEMM starts at a+14, done before the next
// launch, so no kernel end leads anywhere. The host chain is each linear whole:
//   linear 5 + addmm 5 + launch 5 + addmm 10 + linear 5 = 30 us a layer, 4 x 30 = 120;
// the GPU branch of the last layer (launch at 100 on the path, +4 delay +2 kernel = 106)
// falls short of the host's 120. Events: 4 x (linear, addmm, launch) = 12. The 10 us
// before each layer (Python) is on no path: 120 of a 170 us step.
BOOST_AUTO_TEST_CASE(host_bound) {
  check_shape("host", {.length = 120, .cpu = 120, .events = 12}, "cpu_bound", "CPU");
}

// gpu: launches at 13, 25, 37, 49 (inside aten::linear [10+12l, +10] > aten::addmm
// [+2, +6] > cudaLaunchKernel [+3, +3]) queue four 100 us GEMMs at 18, 119, 220, 321;
// cudaStreamSynchronize [60, 423] waits for the last (ends 421). The path: linear 2 +
// addmm 1 (to the first launch), launch delay 18 - 13 = 5, 4 x 100 GEMM, 3 gaps of 1 us,
// then the sync's end (0): 3 + 5 + 400 + 3 = 411. Later launches found their stream busy
// (kernel-kernel edges, not launch ones). Events: linear, addmm, 4 GEMMs = 6.
BOOST_AUTO_TEST_CASE(gpu_bound) {
  check_shape("gpu", {.length = 411, .cpu = 3, .compute = 400, .launch = 5, .gaps = 3, .events = 6},
              "gpu_compute_bound", "GPU compute");
}

// launch: per layer (4, 30 us apart) aten::add [a, a+6] > cudaLaunchKernel [a+1, a+5];
// its 2 us kernel starts at a+21 on an idle stream; cudaDeviceSynchronize [a+8, a+24]
// returns 1 us after it. Per layer: add 1 (to the launch) + launch delay 20 + kernel 2,
// then the sync's end (0) and on to the next add (0): 23; 4 x 23 = 92 = cpu 4 + launch 80
// + compute 8. The host's own way from the launch (launch 4 + add 1 = 5) is shorter than
// the GPU's (22). Events: 4 x (add, kernel) = 8.
BOOST_AUTO_TEST_CASE(launch_bound) {
  check_shape("launch", {.length = 92, .cpu = 4, .compute = 8, .launch = 80, .events = 8},
              "gpu_kernel_launch_overhead", "kernel launch");
}

// sync: per layer (4, 90 us apart) aten::linear [a, a+8] > aten::addmm [a+1, a+7] >
// cudaLaunchKernel [a+2, a+6]; the 50 us GEMM [a+7, a+57] on an idle stream;
// cudaStreamSynchronize [a+9, a+58]; aten::cat [a+60, a+80] on the host. Per layer:
// linear 1 + addmm 1 + launch delay 5 + GEMM 50, the sync's end (0), cat 20 = 77;
// 4 x 77 = 308 = cpu 4 x 22 = 88, launch 20, compute 200. The host alone (linear 8 + the
// sync's 0 + cat 20 = 28) is shorter: the sync puts each GEMM between the host's work,
// and the longer of the two, the GEMM, bounds. Events: 4 x (linear, addmm, GEMM, cat) = 16.
BOOST_AUTO_TEST_CASE(sync_bound) {
  check_shape("sync", {.length = 308, .cpu = 88, .compute = 200, .launch = 20, .events = 16}, "gpu_compute_bound",
              "GPU compute");
}

// loader: enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__ [5, 305] (a cpu_op
// holding the main thread while the workers load), then aten::linear [310, 320] >
// aten::addmm [312, 318] > cudaLaunchKernel [313, 316], the 30 us GEMM [318, 348],
// cudaStreamSynchronize [322, 349]. The path: loader 300 (data_loading: its name holds
// --data-load-pattern's "DataLoader"), linear 2 + addmm 1, launch delay 5, GEMM 30:
// 338 (the host alone: 300 + 10 = 310). Events: loader, linear, addmm, GEMM = 4.
BOOST_AUTO_TEST_CASE(loader_bound) {
  check_shape("loader", {.length = 338, .cpu = 3, .loading = 300, .compute = 30, .launch = 5, .events = 4},
              "data_loading", "data loading");
  // No pattern: the same time is the CPU's.
  check_shape("loader", {.length = 338, .cpu = 303, .compute = 30, .launch = 5, .events = 4}, "cpu_bound", "CPU",
              {"--data-load-pattern", ""});
}

// Integer microseconds or --ns's three decimals: the same figures.
BOOST_AUTO_TEST_CASE(ns_timestamps_same_path) {
  const auto us = shape("gpu"), ns = shape("gpu", {"--ns"});
  const auto j = report(us, ns);
  const Path want{.length = 411, .cpu = 3, .compute = 400, .launch = 5, .gaps = 3, .events = 6};
  check_steps(j, "control", want, "gpu_compute_bound", "gpu");
  check_steps(j, "test", want, "gpu_compute_bound", "gpu --ns");
}

// The same layers with bigger GEMMs: host-bound (120 us of operators, 2 us GEMMs) to
// GPU-bound (411 us, 400 of them GEMM); the largest bound type moves, and the bottom line
// says so, naming the GEMMs' family (+400 us on the path: 4 x 100 against none).
BOOST_AUTO_TEST_CASE(bound_moves_host_to_gpu) {
  const auto j = report(shape("host"), shape("gpu"));
  const auto& cp = j.at("critical_path").as_object();
  check_steps(j, "control", {.length = 120, .cpu = 120, .events = 12}, "cpu_bound", "host");
  check_steps(j, "test", {.length = 411, .cpu = 3, .compute = 400, .launch = 5, .gaps = 3, .events = 6},
              "gpu_compute_bound", "gpu");
  BOOST_TEST(cp.at("bound_moved").as_bool());
  BOOST_TEST(std::string(cp.at("control_bound").as_string()) == "CPU");
  BOOST_TEST(std::string(cp.at("test_bound").as_string()) == "GPU compute");
  const std::string line(j.at("step_breakdown").at("bottom_line").as_string());
  BOOST_TEST(line.find("is now GPU compute-bound") != std::string::npos, line);
  BOOST_TEST(line.find("(was CPU-bound)") != std::string::npos, line);
  BOOST_TEST(line.find("GEMM +400") != std::string::npos, line);
}

// --what-if on the GEMM: at half its length each of the 4 GEMMs on the path gives back
// 50 us, and nothing else overtakes it (the path becomes 3 + 5 + 4 x 50 + 3 = 211; the
// host's chain is 40): exactly 200 us a step, half of the 400 us of GEMM on the path.
BOOST_AUTO_TEST_CASE(what_if_half_the_gemm) {
  const auto dir = shape("gpu");
  const auto j = report(dir, dir, {"--what-if", "ampere_sgemm_128x64_tn*0.5"});
  int asked = 0;
  for (const auto& v : j.at("critical_path").at("what_if").as_array()) {
    const auto& w = v.as_object();
    if (w.at("what").as_string() != "ampere_sgemm_128x64_tn*0.5") continue;
    ++asked;
    BOOST_TEST(w.at("row").is_null());  // asked, not one of the rows' own
    BOOST_TEST(num(w.at("factor")) == 0.5);
    BOOST_TEST(num(w.at("saved_us")) == 200);
    BOOST_TEST(w.at("steps").to_number<int>() == k_steps);
  }
  BOOST_TEST(asked == 2);  // one per side
}

// HTA's model on the sync shape. Without cuda_sync events it has no edge from a GEMM's end
// to the sync that waited for it, and the sync itself weighs 0 (a blocking call): the host
// never waits, and each layer's host chain is linear 8 (1 + 1 + the launch's 4 on the
// runtime lock's edge + 1 + 1) + sync 0 + cat 20 = 28. Only the last layer's GEMM can join:
// 3 x 28 + linear 1 + addmm 1 = 86 to its launch, + 5 delay + 50 GEMM = 141, more than the
// host's 86 + 26 = 112. So 141 = cpu 86, launch 5, compute 50, and CPU-bound where the
// default model (308, GPU compute) sees the host waiting on every GEMM. Events: 3 x
// (linear, addmm, launch, cat) + linear, addmm, GEMM = 15.
BOOST_AUTO_TEST_CASE(hta_model_on_sync) {
  check_shape("sync", {.length = 141, .cpu = 86, .compute = 50, .launch = 5, .events = 15}, "cpu_bound", "CPU",
              {"--critical-path-model", "hta"}, "hta");
}

// HTA's model where the traces need no GPU-to-host edge: the same paths as the default
// model (host 120; gpu 411, its sync's end only ties the last GEMM's).
BOOST_AUTO_TEST_CASE(hta_model_agrees_without_waits) {
  check_shape("host", {.length = 120, .cpu = 120, .events = 12}, "cpu_bound", "CPU", {"--critical-path-model", "hta"},
              "hta");
  check_shape("gpu", {.length = 411, .cpu = 3, .compute = 400, .launch = 5, .gaps = 3, .events = 6},
              "gpu_compute_bound", "GPU compute", {"--critical-path-model", "hta"}, "hta");
}

BOOST_AUTO_TEST_SUITE_END()
