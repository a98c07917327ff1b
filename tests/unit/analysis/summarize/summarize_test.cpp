#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <map>
#include <random>

#include "analysis/compare.hpp"
#include "analysis/summarize/summarize.hpp"
#include "reading/trace_reader.hpp"
#include "support/test_support.hpp"

using namespace tracediff;

namespace {

model::TraceFile read(const std::string& json) {
  reading::ByteSource src{std::string_view(json)};
  auto r = reading::read_trace(src, "mem.json", {});
  BOOST_REQUIRE(!r.skipped);
  return std::move(r.file);
}

std::string ev(const std::string& cat, const std::string& name, int tid, long ts, long dur, long corr = -1,
               int pid = 1) {
  return test::x_event(cat, name, pid, tid, ts, dur, corr);
}

std::string trace(const std::vector<std::string>& events) { return test::trace_json(events); }

const model::Cell* cell(const model::FileSummary& s, const std::string& name) {
  for (const auto& c : s.cells)
    if (s.keys[c.key].name == name) return &c;
  return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(summarize)

BOOST_AUTO_TEST_CASE(self_time_subtracts_direct_children) {
  const auto s = analysis::summarize_file(read(trace({
      ev("user_annotation", "ProfilerStep#1", 1, 0, 1000),
      ev("cpu_op", "aten::linear", 1, 100, 500),
      ev("cpu_op", "aten::addmm", 1, 150, 300),
      ev("cuda_runtime", "cudaLaunchKernel", 1, 200, 50, 9),
      ev("kernel", "gemm", 7, 400, 200, 9, 0),
      ev("kernel", "gemm", 8, 500, 200, 9, 0),  // second stream overlaps the first
  })));
  BOOST_TEST(cell(s, "aten::linear")->self_ns == 200000);  // 500 - 300
  BOOST_TEST(cell(s, "aten::addmm")->self_ns == 250000);   // 300 - 50
  BOOST_TEST(cell(s, "gemm")->self_ns == 400000);          // GPU work keeps its duration
  BOOST_REQUIRE(s.steps.size() == 1u);
  const auto& d = s.steps[0].detail;
  BOOST_TEST(d.gpu_busy_ns == 300000);  // union of [400,600) and [500,700): overlapping streams count once
  BOOST_TEST(d.gpu_idle_ns == 700000);
  BOOST_TEST(d.kernel_ns == 400000);
  BOOST_TEST(d.runtime_ns == 50000);
  BOOST_TEST(d.cpu_self_ns == 450000);
  // The kernel was launched inside aten::addmm: the innermost cpu_op around the launch.
  BOOST_REQUIRE(s.launches.size() == 1u);
  BOOST_TEST(s.launchers[s.launches[0].launcher] == "aten::addmm");
}

BOOST_AUTO_TEST_CASE(self_time_never_exceeds_thread_busy_time) {
  // Random, partly improper nesting on three threads: the sum of self times on a
  // thread is at most the union of its intervals.
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::string> events;
    std::map<int, std::vector<std::pair<long, long>>> by_thread;
    for (int i = 0; i < 60; ++i) {
      const int tid = 1 + static_cast<int>(rng() % 3);
      const long ts = static_cast<long>(rng() % 1000);
      const long dur = static_cast<long>(rng() % 300);
      events.push_back(ev("cpu_op", "op" + std::to_string(i), tid, ts, dur));
      by_thread[tid].push_back({ts, ts + dur});
    }
    const auto f = read(trace(events));
    const auto s = analysis::summarize_file(f);
    std::map<int, long> self_by_thread;
    for (const auto& c : s.cells) {
      const int i = std::stoi(s.keys[c.key].name.substr(2));
      const auto& e = f.events[static_cast<std::size_t>(i)];
      self_by_thread[std::stoi(std::string(f.pool.get(e.tid)))] += c.self_ns;
    }
    for (auto& [tid, iv] : by_thread) {
      std::sort(iv.begin(), iv.end());
      long busy = 0, b = -1, e = -1;
      for (auto [x, y] : iv) {
        if (x > e) busy += e - b, b = x, e = y;
        else e = std::max(e, y);
      }
      busy += e - b;
      BOOST_TEST(self_by_thread[tid] <= busy * 1000, "round " << round << " thread " << tid);
      BOOST_TEST(self_by_thread[tid] >= 0);
    }
  }
}

// Python's _call_impl calls itself (a layer's inside the model's): the name's
// inclusive time is the union of its intervals, not one count per level; self times
// are untouched. A partial overlap adds only what sticks out.
BOOST_AUTO_TEST_CASE(a_name_nested_in_itself_counts_once) {
  const char* call = "torch/nn/modules/module.py(1762): _call_impl";
  const auto s = analysis::summarize_file(read(trace({
      ev("user_annotation", "ProfilerStep#1", 1, 0, 1000),
      ev("python_function", call, 1, 100, 800),       // the model
      ev("python_function", call, 1, 200, 300),       // a layer, inside it
      ev("python_function", call, 1, 250, 100),       // deeper still
      ev("cpu_op", "aten::linear", 1, 260, 50),
      ev("python_function", call, 1, 600, 200),       // another layer
      ev("cpu_op", "rec", 1, 920, 40),
      ev("cpu_op", "rec", 1, 930, 50),                // overlaps the first rec past its end: +20
      ev("cpu_op", "rec", 2, 930, 50),                // another thread: its own
  })));
  const auto* c = cell(s, call);
  BOOST_REQUIRE(c);
  BOOST_TEST(c->count == 4u);
  BOOST_TEST(c->total_ns == 800000);                  // not 800 + 300 + 100 + 200
  BOOST_TEST(c->self_ns == 800000 - 50000);           // only aten::linear is not _call_impl
  BOOST_TEST(cell(s, "rec")->total_ns == (40 + 20 + 50) * 1000);
  // Never more than the step on one thread.
  BOOST_TEST(c->total_ns <= s.steps[0].detail.dur_ns);
}

// PyTorch <= 1.8 wrote ProfilerStep#N as a cpu_op: it is the step, not an operator
// with self time, and no launcher of the kernels under it.
BOOST_AUTO_TEST_CASE(legacy_profiler_step_operators_are_steps_only) {
  const auto s = analysis::summarize_file(read(trace({
      ev("cpu_op", "ProfilerStep#5", 1, 0, 1000),
      ev("cpu_op", "aten::mm", 1, 100, 200),
      ev("cuda_runtime", "cudaLaunchKernel", 1, 400, 10, 3),  // straight under the step
      ev("kernel", "gemm", 7, 420, 100, 3, 0),
  })));
  BOOST_TEST(s.has_steps);
  BOOST_REQUIRE(s.steps.size() == 1u);
  BOOST_TEST(s.steps[0].detail.cpu_self_ns == 200000);  // aten::mm only, not the step's 790
  BOOST_TEST(!cell(s, "ProfilerStep#5"));
  BOOST_REQUIRE(s.launches.size() == 1u);
  BOOST_TEST(s.launchers[s.launches[0].launcher] == "(no enclosing operator)");
  // Host busy: aten::mm and the runtime call, not the step span.
  BOOST_TEST(s.steps[0].detail.host_busy_ns == 210000);
}

// Host busy per step: the union of host events within the step window, on each
// thread that runs operators, summed over those threads.
BOOST_AUTO_TEST_CASE(host_busy_is_a_union_per_thread_within_the_step) {
  const auto s = analysis::summarize_file(read(trace({
      ev("user_annotation", "ProfilerStep#1", 1, 0, 1000),
      ev("user_annotation", "ProfilerStep#2", 1, 1000, 1000),
      ev("user_annotation", "## forward ##", 1, 50, 400),
      ev("cpu_op", "aten::mm", 1, 100, 100),           // inside the annotation: counted once
      ev("cpu_op", "aten::add", 1, 900, 300),          // runs past step 1's end: cut at 1000
      ev("cpu_op", "AddBackward0", 2, 500, 200),       // the autograd thread, its own union
      ev("python_function", "train.py(9): log", 3, 100, 900),  // a thread with no operator
      ev("cpu_op", "aten::mm", 1, 1100, 100),
  })));
  BOOST_REQUIRE(s.steps.size() == 2u);
  BOOST_TEST(s.steps[0].detail.host_busy_ns == (400 + 100 + 200) * 1000);
  BOOST_TEST(s.steps[1].detail.host_busy_ns == 100 * 1000);
}

// GPU busy is what ran within the step window, whichever step launched it, so busy +
// idle = step time x GPUs; work launched in a step that outlives it is spill.
BOOST_AUTO_TEST_CASE(gpu_busy_within_the_step_and_spill_past_it) {
  const auto s = analysis::summarize_file(read(trace({
      ev("user_annotation", "ProfilerStep#1", 1, 0, 1000),
      ev("user_annotation", "ProfilerStep#2", 1, 1000, 1000),
      ev("cuda_runtime", "cudaLaunchKernel", 1, 100, 10, 1),
      ev("kernel", "k1", 7, 200, 1300, 1, 0),  // launched in step 1, runs to 1500
      ev("cuda_runtime", "cudaLaunchKernel", 1, 1100, 10, 2),
      ev("kernel", "k2", 7, 1500, 200, 2, 0),  // launched in step 2, queued behind k1
      ev("cuda_runtime", "cudaLaunchKernel", 1, 1200, 10, 3),
      ev("kernel", "k3", 8, 1600, 100, 3, 1),  // a second GPU (pid 1)
  })));
  BOOST_REQUIRE(s.steps.size() == 2u);
  const auto& a = s.steps[0].detail;
  const auto& b = s.steps[1].detail;
  BOOST_TEST(a.gpu_busy_ns == 800000);              // k1 within [0, 1000)
  BOOST_TEST(a.gpu_spill_ns == 500000);             // k1 after 1000
  BOOST_TEST(b.gpu_busy_ns == (500 + 200 + 100) * 1000);  // k1's tail, k2, k3
  BOOST_TEST(b.gpu_spill_ns == 0);
  for (const auto* d : {&a, &b}) BOOST_TEST(d->gpu_busy_ns + d->gpu_idle_ns == d->dur_ns * 2);  // two GPUs
  // Rows stay by launch step: k1 is step 1's.
  BOOST_TEST(a.kernel_ns == 1300000);
}

BOOST_AUTO_TEST_CASE(graphs_compiled_regions_and_cuda_versions) {
  const auto plain = analysis::summarize_file(read(trace({ev("cpu_op", "aten::mm", 1, 0, 10)})));
  BOOST_TEST(!plain.cuda_graphs);
  BOOST_TEST(!plain.compiled);
  const auto graphs = analysis::summarize_file(read(trace({
      ev("cpu_op", "CUDAGraph::replay", 1, 0, 100),
      ev("cuda_runtime", "cudaGraphLaunch", 1, 10, 5, 4),
      ev("kernel", "triton_poi_fused_add_0", 7, 20, 5, 4, 0),
  })));
  BOOST_TEST(graphs.cuda_graphs);
  BOOST_TEST(graphs.compiled);
  BOOST_TEST(analysis::summarize_file(read(trace({ev("user_annotation", "Torch-Compiled Region: 0/0", 1, 0, 10)})))
                 .compiled);
  const auto versions = analysis::summarize_file(read(
      R"({"cuda_runtime_version": 12040, "cuda_driver_version": "12020", "traceEvents": [)" +
      ev("cpu_op", "aten::mm", 1, 0, 10) + "]}"));
  BOOST_TEST(*versions.cuda_runtime_version == 12040);
  BOOST_TEST(*versions.cuda_driver_version == 12020);
}

BOOST_AUTO_TEST_CASE(file_without_steps_is_one_pseudo_step) {
  const auto s = analysis::summarize_file(read(trace({ev("cpu_op", "a", 1, 10, 5), ev("cpu_op", "b", 1, 30, 10)})));
  BOOST_TEST(!s.has_steps);
  BOOST_REQUIRE(s.steps.size() == 1u);
  BOOST_TEST(s.steps[0].detail.dur_ns == 30000);
  BOOST_TEST(s.cells.size() == 2u);
}

// The longest dur read is 2^48 ns (78 hours); 40,000 of them in one cell, step and
// launcher add up past int64: the sums saturate (no undefined behaviour: the
// sanitizer build checks that), and the comparison adds the two sides' as well.
BOOST_AUTO_TEST_CASE(absurd_sums_saturate_instead_of_overflowing) {
  const long longest_us = 281474976710;  // 2^48 ns, rounded down to whole µs
  std::vector<std::string> events;
  for (int i = 0; i < 40000; ++i) {
    events.push_back(ev("cpu_op", "aten::long", 100 + i, i, longest_us));  // a thread each: no nesting
    events.push_back(ev("cuda_runtime", "cudaLaunchKernel", 1, i, 1, i));
    events.push_back(ev("kernel", "gemm", 7, i, longest_us, i, 2));
  }
  const auto f = read(trace(events));
  const auto s = analysis::summarize_file(f);
  const auto* c = cell(s, "aten::long");
  BOOST_REQUIRE(c);
  BOOST_TEST(c->count == 40000u);
  BOOST_TEST(c->total_ns == INT64_MAX);
  BOOST_TEST(c->self_ns >= 0);
  BOOST_TEST(cell(s, "gemm")->total_ns == INT64_MAX);
  BOOST_TEST(s.steps.at(0).detail.kernel_ns == INT64_MAX);
  BOOST_TEST(s.steps.at(0).detail.gpu_idle_ns >= 0);
  model::SetSummary set;
  set.files = {s, s};
  set.files[1].rank = 1;
  const auto report = analysis::compare_summaries(set, set, {});
  for (const auto& row : report.rows) {
    BOOST_TEST(row.control.total_ns >= 0, row.name);
    BOOST_TEST(row.control.total_ns == row.test.total_ns, row.name);
  }
  BOOST_TEST(report.control.gpu_total.total_ns == INT64_MAX);
  BOOST_TEST(report.control.step_mean.kernel_ns >= 0);
}

BOOST_AUTO_TEST_SUITE_END()
