// Where each GPU's step went (issue #26 item 1, analysis/summarize/timeline.hpp): the parts add
// up to the step on every GPU and step, to the nanosecond, on generated and real
// traces; on generated ones each part is what a brute-force reading of the trace's
// own events gives (the rules as docs/reading-the-report.md states them, elementary segment by
// segment), and each shape of tracegen moves the part it is about.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "model/report.hpp"
#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

using Figures = std::map<std::string, std::int64_t>;  // step field name -> ns

struct FileSteps {
  std::string path;
  std::int64_t gpus = 0;
  std::map<std::int64_t, Figures> steps;  // by step number
};

// Each file's per-step figures as `tracediff summarize` writes them.
std::vector<FileSteps> summary_steps(const std::string& input) {
  const auto out = temp_dir("timeline-sum") + "/s.tdsum.json";
  const auto r = run_cli({"summarize", input, "-o", out, "-q"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, input + ": " + r.err);
  const auto j = parse_json(read_file(out));
  std::vector<FileSteps> files;
  for (const auto& f : j.at("files").as_array()) {
    FileSteps fs{std::string(f.at("path").as_string()), f.at("gpus_with_work").to_number<std::int64_t>(), {}};
    // Steps' numbers, then each figure's values over the steps, in the file's unit.
    const auto unit = f.at("unit").to_number<std::int64_t>();
    const auto& steps = f.at("steps").as_array();
    const auto& values = f.at("step_figures").as_array();
    BOOST_REQUIRE(values.size() == std::size(tracediff::model::k_step_fields) * steps.size());
    for (std::size_t s = 0; s < steps.size(); ++s) {
      auto& figures = fs.steps[steps[s].to_number<std::int64_t>()];
      for (std::size_t i = 0; i < std::size(tracediff::model::k_step_fields); ++i)
        figures[tracediff::model::k_step_fields[i].name] = values[i * steps.size() + s].to_number<std::int64_t>() * unit;
    }
    files.push_back(std::move(fs));
  }
  return files;
}

std::int64_t sum(const Figures& f, std::initializer_list<const char*> names) {
  std::int64_t s = 0;
  for (const char* n : names) s += f.at(n);
  return s;
}

// The parts add up: busy, idle, exposed communication, and the step on every GPU.
void check_adds_up(const std::vector<FileSteps>& files) {
  for (const auto& f : files)
    for (const auto& [step, v] : f.steps) {
      const auto at = f.path + " step " + std::to_string(step);
      BOOST_TEST(sum(v, {"gpu_compute_only", "gpu_comm_only", "gpu_overlap", "gpu_mem_only"}) == v.at("gpu_busy"), at);
      BOOST_TEST(sum(v, {"idle_launch", "idle_sync", "idle_stream", "idle_other"}) == v.at("gpu_idle"), at);
      BOOST_TEST(sum(v, {"exposed_all_reduce", "exposed_all_gather", "exposed_reduce_scatter", "exposed_all_to_all",
                         "exposed_broadcast", "exposed_send_recv", "exposed_other_comm"}) == v.at("gpu_comm_only"),
                 at);
      BOOST_TEST(v.at("gpu_busy") + v.at("gpu_idle") == v.at("dur") * f.gpus, at);
    }
}

// --- The brute-force reading of a generated trace (integer microseconds) -------------

struct Ev {
  std::size_t index;  // in the file
  std::string cat, name;
  std::int64_t b, e, pid, tid, corr;
};

std::int64_t int_of(const json::value& v) { return v.is_string() ? std::stoll(std::string(v.as_string())) : v.to_number<std::int64_t>(); }

std::vector<Ev> read_events(const std::string& path) {
  std::vector<Ev> out;
  const auto j = parse_json(read_file(path));
  std::size_t index = 0;
  for (const auto& x : j.at("traceEvents").as_array()) {
    const auto& o = x.as_object();
    ++index;
    if (o.at("ph").as_string() != "X" || !o.contains("cat") || !o.at("pid").is_int64()) continue;
    const auto ts = int_of(o.at("ts")) * 1000, dur = int_of(o.at("dur")) * 1000;
    const auto* args = o.if_contains("args");
    const auto* corr = args ? args->as_object().if_contains("correlation") : nullptr;
    out.push_back({index, std::string(o.at("cat").as_string()), std::string(o.at("name").as_string()), ts, ts + dur,
                   int_of(o.at("pid")), int_of(o.at("tid")), corr ? int_of(*corr) : -1});
  }
  return out;
}

bool gpu_work(const Ev& e) { return e.cat == "kernel" || e.cat == "gpu_memcpy" || e.cat == "gpu_memset"; }
bool runtime(const Ev& e) { return e.cat == "cuda_runtime" || e.cat == "cuda_driver"; }

// Each ProfilerStep's expected parts, from the rules in their plainest form.
std::map<std::int64_t, Figures> expected_parts(const std::string& path) {
  const auto ev = read_events(path);
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> windows;
  std::map<std::int64_t, const Ev*> launch;                        // correlation -> runtime call
  std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>> syncs;  // (pid, tid, end)
  for (const auto& e : ev) {
    if (e.cat == "user_annotation" && e.name.starts_with("ProfilerStep#"))
      windows[std::stoll(e.name.substr(13))] = {e.b, e.e};
    if (runtime(e) && e.corr >= 0) launch[e.corr] = &e;
  }
  for (const auto& e : ev) {
    const bool blocking_copy = e.name.starts_with("cudaMemcpy") && e.name.find("Async") == std::string::npos;
    if (runtime(e) && (e.name.find("Synchronize") != std::string::npos || blocking_copy)) syncs.emplace_back(e.pid, e.tid, e.e);
    if (e.cat == "gpu_memcpy" && e.name.find("-> Pageable") != std::string::npos && launch.count(e.corr))
      syncs.emplace_back(launch[e.corr]->pid, launch[e.corr]->tid, launch[e.corr]->e);
  }
  std::map<std::int64_t, std::vector<const Ev*>> devices;
  for (const auto& e : ev)
    if (gpu_work(e) && e.e > e.b) devices[e.pid].push_back(&e);
  std::map<std::int64_t, Figures> out;
  for (const auto& [step, w] : windows) out[step];  // every part, zero where none
  for (const auto& [pid, work] : devices) {
    std::vector<std::int64_t> cuts;
    for (const auto* e : work) cuts.insert(cuts.end(), {e->b, e->e});
    for (const auto& [step, w] : windows) cuts.insert(cuts.end(), {w.first, w.second});
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
      const auto x = cuts[c], y = cuts[c + 1];
      int compute = 0, comm = 0, mem = 0;
      for (const auto* e : work)
        if (e->b <= x && e->e >= y) (e->cat != "kernel" ? mem : e->name.find("nccl") != std::string::npos ? comm : compute)++;
      std::string part;
      if (comm) part = compute ? "gpu_overlap" : "gpu_comm_only";
      else if (compute) part = "gpu_compute_only";
      else if (mem) part = "gpu_mem_only";
      else {
        // Idle: since the latest end at or before x (the last of those in the file
        // ended it), until the first start at or after y (the first in the file).
        const Ev *last = nullptr, *next = nullptr;
        for (const auto* e : work) {
          if (e->e <= x && (!last || e->e > last->e || (e->e == last->e && e->index > last->index))) last = e;
          if (e->b >= y && (!next || e->b < next->b || (e->b == next->b && e->index < next->index))) next = e;
        }
        const auto since = last ? last->e : INT64_MIN;
        const Ev* l = next && launch.count(next->corr) ? launch[next->corr] : nullptr;
        if (!l) part = "idle_other";
        else if (l->b < since) part = last && last->tid != next->tid ? "idle_stream" : "idle_other";
        else {
          part = "idle_launch";
          for (const auto& [p, t, end] : syncs)
            if (p == l->pid && t == l->tid && end >= since && end <= l->b) part = "idle_sync";
        }
      }
      for (const auto& [step, w] : windows)
        if (x >= w.first && y <= w.second) {
          out[step][part] += y - x;
          if (part == "gpu_comm_only") out[step]["exposed_all_reduce"] += y - x;  // tracegen's only collective
        }
    }
  }
  return out;
}

// Every file of a generated folder: the summary's parts are the brute force's.
void check_against_brute_force(const std::string& dir) {
  const auto files = summary_steps(dir);
  check_adds_up(files);
  BOOST_REQUIRE(!files.empty());
  for (const auto& f : files) {
    const auto want = expected_parts(f.path);
    BOOST_REQUIRE(want.size() == f.steps.size());
    for (const auto& [step, parts] : want)
      for (const char* part : {"gpu_compute_only", "gpu_comm_only", "gpu_overlap", "gpu_mem_only", "idle_launch",
                               "idle_sync", "idle_stream", "idle_other", "exposed_all_reduce"}) {
        const auto it = parts.find(part);
        BOOST_TEST(f.steps.at(step).at(part) == (it == parts.end() ? 0 : it->second),
                   f.path << " step " << step << " " << part);
      }
  }
}

// A part summed over every file and step.
std::int64_t total(const std::vector<FileSteps>& files, const char* part) {
  std::int64_t s = 0;
  for (const auto& f : files)
    for (const auto& [step, v] : f.steps) s += v.at(part);
  return s;
}

const std::vector<std::string> k_small{"--steps", "4", "--layers", "8"};

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

const json::object* figure(const json::object& j, const char* list, const std::string& id) {
  for (const auto& x : j.at(list).as_array())
    if (x.at("figure").as_string() == id) return &x.as_object();
  return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gpu_timeline)

// Each shape of tracegen: every part of every step and GPU is the brute force's, exactly.
BOOST_AUTO_TEST_CASE(parts_are_the_brute_force_reading_on_every_shape) {
  const std::vector<std::vector<std::string>> shapes{
      k_small,
      with(k_small, {"--comm-exposed"}),
      with(k_small, {"--ranks", "1", "--launch-gap", "60"}),
      with(k_small, {"--ranks", "1", "--stream-wait"}),
      with(k_small, {"--stream-wait", "--comm-exposed", "--no-sync"}),
      with(k_small, {"--ranks", "1", "--unlaunched-kernel", "layer_norm"}),
      with(k_small, {"--cuda-graphs", "--gpu-factor", "3"}),
  };
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    BOOST_TEST_CONTEXT("shape " << i) check_against_brute_force(tracegen("timeline-" + std::to_string(i), shapes[i]));
  }
}

// Each shape moves the part it is about, and no other explains it.
BOOST_AUTO_TEST_CASE(each_shape_moves_its_part) {
  // Communication after the whole backward overlaps nothing: all of it is exposed.
  const auto overlapped = summary_steps(tracegen("timeline-ovl", k_small));
  const auto exposed = summary_steps(tracegen("timeline-exp", with(k_small, {"--comm-exposed"})));
  BOOST_TEST(total(overlapped, "gpu_overlap") > 0);
  BOOST_TEST(total(exposed, "gpu_overlap") == 0);
  BOOST_TEST(total(exposed, "exposed_all_reduce") > total(overlapped, "exposed_all_reduce"));
  BOOST_TEST(total(exposed, "gpu_comm_only") == total(exposed, "exposed_all_reduce"));

  // Host time between launches: the GPU waits for launches, most of its idle time.
  const auto one = with(k_small, {"--ranks", "1"});
  const auto base = summary_steps(tracegen("timeline-base", one));
  const auto gap = summary_steps(tracegen("timeline-gap", with(one, {"--launch-gap", "60"})));
  BOOST_TEST(total(gap, "idle_launch") > total(base, "idle_launch") + 4 * 60000);  // 4 steps, at least a gap each
  BOOST_TEST(2 * total(gap, "idle_launch") > total(gap, "gpu_idle"));

  // The host syncs every other step, then finishes the step before launching again.
  const auto no_sync = summary_steps(tracegen("timeline-nosync", with(one, {"--no-sync"})));
  BOOST_TEST(total(base, "idle_sync") > 0);
  BOOST_TEST(total(no_sync, "idle_sync") == 0);

  // One stream: no stream wait. A second stream with event waits: in every step.
  BOOST_TEST(total(base, "idle_stream") == 0);
  const auto wait = summary_steps(tracegen("timeline-wait", with(one, {"--stream-wait"})));
  BOOST_REQUIRE(wait.size() == 1u);
  for (const auto& [step, v] : wait[0].steps) BOOST_TEST(v.at("idle_stream") > 0, "step " << step);
}

// The real traces: the parts add up on every file, step and GPU.
BOOST_AUTO_TEST_CASE(parts_add_up_on_every_real_trace) {
  const auto files = data_trace_files();
  BOOST_REQUIRE(!files.empty());
  for (const auto& f : files) check_adds_up(summary_steps(f));
}

BOOST_AUTO_TEST_CASE(parts_add_up_on_the_large_traces, *boost::unit_test::precondition(needs_traces(large_traces()))) {
  for (const auto& f : large_trace_files()) check_adds_up(summary_steps(f));
  // HTA's pair: communication on its GPU, and idle time whose launches are recorded.
  const auto c = summary_steps(trace_path("hta-trace-diff/control"));
  BOOST_TEST(total(c, "gpu_comm_only") + total(c, "gpu_overlap") > 0);
  BOOST_TEST(total(c, "idle_launch") > 0);
}

// Shown in the breakdown, not the headline; the exposed collectives only where there
// are some; summaries give the traces' figures.
BOOST_AUTO_TEST_CASE(breakdown_and_summaries) {
  const auto c = tracegen("timeline-rep-c", k_small);
  const auto t = tracegen("timeline-rep-t", with(k_small, {"--comm-exposed"}));
  const auto j = report_json(c, t);
  for (const char* id : {"gpu_compute_only", "gpu_comm_only", "gpu_overlap", "gpu_mem_only", "idle_launch", "idle_sync",
                         "idle_stream", "idle_other", "exposed_all_reduce"}) {
    BOOST_TEST(figure(j, "breakdown", id), id);
    BOOST_TEST(!figure(j, "headline", id), id);
  }
  BOOST_TEST(!figure(j, "breakdown", "exposed_all_gather"));
  const auto* overlap = figure(j, "breakdown", "gpu_overlap");
  BOOST_REQUIRE(overlap);
  BOOST_TEST(overlap->at("control").to_number<double>() > 0);
  BOOST_TEST(overlap->at("test").to_number<double>() == 0);

  const auto dir = temp_dir("timeline-rep");
  for (const auto& [in, out] : {std::pair{c, dir + "/c.tdsum.json"}, std::pair{t, dir + "/t.tdsum.json"}}) {
    const auto made = run_cli({"summarize", in, "-o", out, "-q"});
    BOOST_REQUIRE_MESSAGE(made.exit_code == 0, made.err);
  }
  const auto s = report_json(dir + "/c.tdsum.json", dir + "/t.tdsum.json");
  BOOST_TEST(json::serialize(j.at("breakdown")) == json::serialize(s.at("breakdown")));

  // One GPU without communication: no exposed collective at all.
  const auto one = tracegen("timeline-rep-one", with(k_small, {"--ranks", "1"}));
  const auto alone = report_json(one, one);
  BOOST_TEST(figure(alone, "breakdown", "gpu_comm_only"));
  BOOST_TEST(!figure(alone, "breakdown", "exposed_all_reduce"));
}

// Without steps, the trace runs from its first host event or GPU work to the last one to
// end: GPU work after the host is done is the trace's (no later step to land in).
BOOST_AUTO_TEST_CASE(a_whole_trace_ends_with_its_gpu_work) {
  const auto dir = temp_dir("whole-gpu");
  write_file(dir + "/t.json", trace_json({x_event("cpu_op", "aten::mm", 1, 1, 0, 100),
                                          x_event("cuda_runtime", "cudaLaunchKernel", 1, 1, 10, 5, 7),
                                          x_event("kernel", "ampere_sgemm_128x64_nn", 0, 7, 200, 1000, 7)}));
  const auto j = report_json(dir + "/t.json", dir + "/t.json");
  const auto& st = j.at("control").at("step_time_us").as_object();
  BOOST_TEST(st.at("mean").to_number<double>() == 1200.0);
  const auto& mean = j.at("steps").at("control").at("mean").as_object();
  BOOST_TEST(mean.at("gpu_busy_us").to_number<double>() == 1000.0);
  BOOST_TEST(mean.at("gpu_spill_us").to_number<double>() == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
