// The host's side of the step (issue #26, item 2): host busy splits into working and
// waiting for the GPU, host idle is the rest of step × threads; rows that are mostly
// the host blocked on the GPU are marked, kept out of the top lists, and one note says
// what the GPU ran meanwhile. Expected values come from the raw events, read apart.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "analysis/summarize/summarize.hpp"
#include "reading/trace_reader.hpp"
#include "support/test_support.hpp"

using namespace tracediff;
using namespace tracediff::test;
namespace json = boost::json;

namespace {

double num(const json::value& v) { return v.to_number<double>(); }

model::FileSummary summary_of(const std::string& path) {
  const auto read = reading::read_trace_file(path, {});
  BOOST_TEST_REQUIRE(!read.skipped, path);
  return analysis::summarize_file(read.file, {});
}

std::string only_file(const std::string& dir) { return dir + "/rank0.pt.trace.json"; }

// What the events say, computed from the JSON alone (integer microseconds, as
// tracegen writes them by default): per step (in order) the waits on the host, and
// the GPU time that ran during them.
struct Oracle {
  std::vector<std::int64_t> wait_ns;  // per ProfilerStep
  std::int64_t gpu_during_waits_ns = 0;
  std::size_t waits = 0;
};

Oracle oracle(const std::string& path) {
  const auto doc = parse_json(read_file(path));
  std::vector<const json::object*> events;
  for (const auto& v : doc.at("traceEvents").as_array())
    if (v.as_object().contains("ph") && v.at("ph").as_string() == "X") events.push_back(&v.as_object());
  const auto us = [](const json::value& v) { return static_cast<std::int64_t>(v.to_number<double>()) * 1000; };
  const auto corr = [](const json::object& e) -> std::int64_t {
    const auto* a = e.if_contains("args");
    const auto* c = a ? a->as_object().if_contains("correlation") : nullptr;
    return c ? c->to_number<std::int64_t>() : -1;
  };
  // Copies from or to pageable memory block the host, either way: correlation -> the copy's time.
  std::map<std::int64_t, std::int64_t> pageable;
  for (const auto* e : events)
    if (e->at("cat").as_string() == "gpu_memcpy" &&
        std::string_view(e->at("name").as_string()).find("Pageable") != std::string_view::npos)
      pageable[corr(*e)] = us(e->at("dur"));
  std::vector<std::pair<std::int64_t, std::int64_t>> steps, waits;
  for (const auto* e : events) {
    const std::string name(e->at("name").as_string());
    const auto b = us(e->at("ts")), d = us(e->at("dur"));
    if (name.starts_with("ProfilerStep#")) steps.push_back({b, b + d});
    if (e->at("cat").as_string() == "cuda_runtime" && name == "cudaStreamSynchronize") waits.push_back({b, b + d});
    // A blocking copy waits for the call less its copy's own time.
    if (e->at("cat").as_string() == "cuda_runtime" && name == "cudaMemcpyAsync" && pageable.count(corr(*e)) &&
        d > pageable[corr(*e)])
      waits.push_back({b, b + d - pageable[corr(*e)]});
  }
  std::sort(steps.begin(), steps.end());
  std::sort(waits.begin(), waits.end());
  Oracle o;
  o.waits = waits.size();
  for (const auto& [sb, se] : steps) {
    std::int64_t w = 0;
    for (const auto& [b, e] : waits)
      if (b >= sb && b < se) w += std::min(e, se) - b;
    o.wait_ns.push_back(w);
  }
  for (const auto* e : events) {
    const auto cat = e->at("cat").as_string();
    if (cat != "kernel" && cat != "gpu_memcpy" && cat != "gpu_memset") continue;
    const auto b = us(e->at("ts")), end = b + us(e->at("dur"));
    for (const auto& [wb, we] : waits) o.gpu_during_waits_ns += std::max<std::int64_t>(0, std::min(end, we) - std::max(b, wb));
  }
  return o;
}

const json::object* row_named(const json::object& j, const std::string& name) {
  for (const auto& v : j.at("rows").as_array())
    if (v.at("name").as_string() == name) return &v.as_object();
  return nullptr;
}

const json::object* figure(const json::object& j, const char* id) {
  for (const auto& v : j.at("breakdown").as_array())
    if (v.at("figure").as_string() == id) return &v.as_object();
  return nullptr;
}

// Every step of a summary: the wait is part of host busy, and busy + idle is the step
// times the same number of threads in every step.
void check_split(const model::FileSummary& s, const std::string& what) {
  std::int64_t threads = -1;
  for (const auto& st : s.steps) {
    const auto& d = st.detail;
    BOOST_TEST(d.host_wait_ns >= 0, what);
    BOOST_TEST(d.host_wait_ns <= d.host_busy_ns, what << " step " << st.step);
    if (d.dur_ns <= 0) continue;
    BOOST_TEST((d.host_busy_ns + d.host_idle_ns) % d.dur_ns == 0, what << " step " << st.step);
    const auto n = (d.host_busy_ns + d.host_idle_ns) / d.dur_ns;
    if (threads < 0) threads = n;
    BOOST_TEST(n == threads, what << " step " << st.step);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(host_wait)

// A sync after every layer: each step's wait is exactly the syncs and pageable copies
// in it; every wait is inside aten::item; the GPU cells' waits are exactly the GPU time
// that overlapped them; busy + idle is the step on both threads (main and autograd).
BOOST_AUTO_TEST_CASE(sync_every_layer_gives_exact_waits) {
  const auto dir = tracegen("hw-exact", {"--ranks", "1", "--steps", "4", "--no-sync", "--sync-every-layer"});
  const auto path = only_file(dir);
  const auto o = oracle(path);
  BOOST_TEST(o.waits == 4u * 4u * 2u);  // 4 steps × 4 layers × (copy + sync)
  const auto s = summary_of(path);
  BOOST_TEST_REQUIRE(s.steps.size() == o.wait_ns.size());
  std::map<std::string, std::vector<std::int64_t>> wait_by_name;  // per step
  std::int64_t gpu_wait = 0;
  for (const auto& c : s.cells) {
    const auto& k = s.keys[c.key];
    auto& v = wait_by_name[k.name];
    v.resize(s.steps.size());
    v[c.step] += c.wait_ns;
    if (model::is_gpu_work(k.kind)) gpu_wait += c.wait_ns;
    if (!model::is_gpu_work(k.kind)) BOOST_TEST(c.wait_ns <= c.total_ns, k.name);
  }
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    const auto& d = s.steps[i].detail;
    BOOST_TEST(o.wait_ns[i] > 0);
    BOOST_TEST(d.host_wait_ns == o.wait_ns[i], "step " << i);
    BOOST_TEST(wait_by_name["aten::item"][i] == o.wait_ns[i], "step " << i);
    BOOST_TEST(wait_by_name["aten::_local_scalar_dense"][i] == o.wait_ns[i], "step " << i);
    BOOST_TEST(d.host_busy_ns + d.host_idle_ns == 2 * d.dur_ns, "step " << i);
  }
  BOOST_TEST(gpu_wait == o.gpu_during_waits_ns);
  BOOST_TEST(gpu_wait > 0);
  check_split(s, path);
}

// The default shape syncs every other step (loss.item()), --no-sync never: the waits
// are there and only there.
BOOST_AUTO_TEST_CASE(default_and_no_sync_shapes) {
  const auto with = summary_of(only_file(tracegen("hw-default", {"--ranks", "1", "--steps", "4"})));
  const auto without = summary_of(only_file(tracegen("hw-nosync", {"--ranks", "1", "--steps", "4", "--no-sync"})));
  const auto o = oracle(only_file(tracegen("hw-default2", {"--ranks", "1", "--steps", "4"})));
  for (std::size_t i = 0; i < with.steps.size(); ++i) {
    BOOST_TEST(with.steps[i].detail.host_wait_ns == o.wait_ns[i]);
    BOOST_TEST((with.steps[i].detail.host_wait_ns > 0) == (i % 2 == 1 || i == 3));
    BOOST_TEST(without.steps[i].detail.host_wait_ns == 0);
  }
}

// A comparison where only the syncs were added: the rows that wait are marked, none is
// a regression, the lists count them, the note names what the GPU ran, and the counts
// add up to the rows.
BOOST_AUTO_TEST_CASE(rows_that_wait_leave_the_lists) {
  const std::vector<std::string> common{"--ranks", "1", "--steps", "8", "--no-sync", "--gpu-factor", "4"};
  auto synced = common;
  synced.push_back("--sync-every-layer");
  const auto c = tracegen("hw-list-c", common);
  const auto t = tracegen("hw-list-t", synced);
  const auto j = report_json(c, t);
  for (const char* name : {"aten::item", "aten::_local_scalar_dense", "cudaStreamSynchronize", "Stream Sync"}) {
    const auto* row = row_named(j, name);
    BOOST_TEST_REQUIRE(row, name);
    BOOST_TEST(row->at("waits_for_gpu").as_bool(), name);
  }
  const auto* mm = row_named(j, "aten::addmm");
  BOOST_TEST_REQUIRE(mm);
  BOOST_TEST(!mm->at("waits_for_gpu").as_bool());
  for (const char* list : {"top_regressions", "top_improvements"})
    for (const auto& v : j.at(list).as_array()) {
      const auto* row = row_named(j, std::string(v.at("name").as_string()));
      BOOST_TEST_REQUIRE(row);
      BOOST_TEST(!row->at("waits_for_gpu").as_bool(), v.at("name"));
    }
  const auto waiting = j.at("top_counts").at("regressions").at("waiting").as_int64();
  BOOST_TEST(waiting >= 4);
  const auto& v = j.at("verdict").as_object();
  BOOST_TEST(v.at("waiting").as_int64() == waiting);
  BOOST_TEST(static_cast<std::size_t>(v.at("regressions").as_int64() + v.at("improvements").as_int64() +
                                      v.at("left_out").as_int64() + v.at("same").as_int64() +
                                      v.at("untestable").as_int64()) == j.at("rows").as_array().size());
  std::string note;
  for (const auto& n : j.at("notes").as_array())
    if (n.as_string().starts_with("The host waits for the GPU")) note = n.as_string();
  BOOST_TEST(note.find("aten::item") != std::string::npos, note);
  BOOST_TEST(note.find("the GPU ran GEMM") != std::string::npos, note);
  const auto* wait = figure(j, "host_wait");
  BOOST_TEST_REQUIRE(wait);
  BOOST_TEST(num(wait->at("control")) == 0.0);
  BOOST_TEST(num(wait->at("test")) > 0.0);
  BOOST_TEST(wait->at("verdict").as_string() == "slower");
  BOOST_TEST(figure(j, "host_idle"));

  const auto csv = parse_csv(run_cli({c, t, "--csv", "-", "-q"}).out);
  const auto col = std::find(csv[0].begin(), csv[0].end(), "waits_for_gpu") - csv[0].begin();
  BOOST_TEST_REQUIRE(static_cast<std::size_t>(col) < csv[0].size());
  bool item = false;
  for (const auto& row : csv)
    if (row[0] == "aten::item") item = row[static_cast<std::size_t>(col)] == "true";
  BOOST_TEST(item);
  const auto md = run_cli({c, t, "--markdown", "-", "-q"}).out;
  BOOST_TEST(md.find("wait for the GPU") != std::string::npos);
  BOOST_TEST(md.find("Host waiting for the GPU") != std::string::npos);
  BOOST_TEST(run_cli({c, t, "-q", "-o", t + "/r.html"}).exit_code == 0);
  BOOST_TEST(read_file(t + "/r.html").find("wait for the GPU") != std::string::npos);
}

// Summaries carry the waits: a comparison of summaries reads as one of the traces.
BOOST_AUTO_TEST_CASE(summaries_give_the_same_figures) {
  const auto c = tracegen("hw-sum-c", {"--ranks", "1", "--steps", "6", "--no-sync"});
  const auto t = tracegen("hw-sum-t", {"--ranks", "1", "--steps", "6", "--no-sync", "--sync-every-layer"});
  for (const auto& dir : {c, t})
    BOOST_TEST_REQUIRE(run_cli({"summarize", dir, "-o", dir + "/s.tdsum.json", "-q"}).exit_code == 0);
  const auto traces = report_json(c, t);
  const auto sums = report_json(c + "/s.tdsum.json", t + "/s.tdsum.json");
  for (const char* id : {"host_busy", "host_wait", "host_idle"})
    BOOST_TEST(json::serialize(*figure(traces, id)) == json::serialize(*figure(sums, id)), id);
  BOOST_TEST(json::serialize(traces.at("rows")) == json::serialize(sums.at("rows")));
  BOOST_TEST(json::serialize(traces.at("notes")) == json::serialize(sums.at("notes")));
}

// Real traces: the wait is part of host busy, and busy + idle is the step times the
// threads that run operators, in every step.
BOOST_AUTO_TEST_CASE(real_traces_split_the_host) {
  for (const auto& path : data_trace_files()) {
    const auto read = reading::read_trace_file(path, {});
    if (read.skipped) continue;
    check_split(analysis::summarize_file(read.file, {}), path);
  }
}

BOOST_AUTO_TEST_CASE(large_traces_split_the_host, *boost::unit_test::precondition(needs_traces(large_traces()))) {
  for (const auto& path : large_trace_files()) {
    const auto read = reading::read_trace_file(path, {});
    if (read.skipped) continue;
    check_split(analysis::summarize_file(read.file, {}), path);
  }
}

// HTA's pair: the top regression was cudaMemcpyAsync +48.7 ms, the host blocked in
// aten::item while the GPU's queue ran 32 ms behind. It waits for the GPU now.
BOOST_AUTO_TEST_CASE(hta_pair_waits_for_the_gpu,
                     *boost::unit_test::precondition(needs_traces({"hta-trace-diff/control", "hta-trace-diff/test"}))) {
  const auto j = report_json(trace_path("hta-trace-diff/control"), trace_path("hta-trace-diff/test"));
  for (const char* name : {"cudaMemcpyAsync", "aten::item"}) {
    const auto* row = row_named(j, name);
    BOOST_TEST_REQUIRE(row, name);
    BOOST_TEST(row->at("waits_for_gpu").as_bool(), name);
  }
  for (const auto& v : j.at("top_regressions").as_array())
    BOOST_TEST(v.at("name").as_string() != "cudaMemcpyAsync");
  const auto* wait = figure(j, "host_wait");
  BOOST_TEST_REQUIRE(wait);
  BOOST_TEST(num(wait->at("test")) - num(wait->at("control")) > 30000.0);  // µs
}

// A loader moved to workers: the GPU becomes the bottleneck and each step's copy from
// pageable memory blocks behind its queue. That is waiting, not a slower copy: the host's
// wait grows, and cudaMemcpyAsync is marked as waiting and kept out of the regressions.
BOOST_AUTO_TEST_CASE(a_copy_from_pageable_memory_that_blocks_is_waiting) {
  const auto control = tracegen("hw-loader", {"--loader-on-main", "3", "--steps", "8", "--seed", "2"});
  const auto test = tracegen("hw-workers", {"--blocking-copy", "--no-sync", "--steps", "8", "--seed", "2", "--layers", "12"});
  const auto j = report_json(control, test);
  const auto* wait = figure(j, "host_wait");
  BOOST_REQUIRE(wait);
  BOOST_TEST(num(wait->at("test")) > num(wait->at("control")));
  const auto* copy = row_named(j, "cudaMemcpyAsync");
  BOOST_REQUIRE(copy);
  BOOST_TEST(copy->at("waits_for_gpu").as_bool());
  BOOST_TEST(num(copy->at("test_wait_per_step_us")) > 300.0);
  for (const auto& r : j.at("top_regressions").as_array()) BOOST_TEST(r.at("name").as_string() != "cudaMemcpyAsync");
}

// A telemetry thread that launches no GPU work and sleeps longer in Test: its frames are
// never what moved the GPU's idle time, and its sleep is no regression of the program.
BOOST_AUTO_TEST_CASE(a_thread_that_launches_nothing_takes_no_blame) {
  const auto control = tracegen("hw-idle-c", {"--idle-thread", "1", "--steps", "8", "--seed", "4"});
  const auto test = tracegen("hw-idle-t", {"--idle-thread", "3", "--launch-gap", "40", "--steps", "8", "--seed", "4"});
  const auto j = report_json(control, test);
  const std::string bottom(j.at("step_breakdown").at("bottom_line").as_string());
  BOOST_TEST(bottom.find("usage_lib") == std::string::npos, bottom);
  BOOST_TEST(bottom.find("sleep") == std::string::npos, bottom);
  BOOST_TEST(bottom.find("GPU idle, waiting for launches") != std::string::npos, bottom);
  const auto* sleep = row_named(j, "<built-in function sleep>");
  BOOST_REQUIRE(sleep);
  BOOST_TEST(sleep->contains("sleeping"));
  BOOST_TEST(sleep->contains("off_launch_threads"));
  const auto* forward = row_named(j, "## forward ##");
  BOOST_REQUIRE(forward);
  BOOST_TEST(!forward->contains("off_launch_threads"));
  for (const auto& r : j.at("top_regressions").as_array()) BOOST_TEST(r.at("name").as_string() != "<built-in function sleep>");
  BOOST_TEST(num(j.at("top_counts").at("regressions").at("sleeping")) >= 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
