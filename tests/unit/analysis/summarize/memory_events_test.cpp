// Memory per step and device (analysis/summarize/memory_events.hpp) from tracegen --memory's
// traces, whose numbers are known: each CPU operator's 4096-byte temporary, a leak a
// step, a peak one operator raises, the host's buffer per step, the allocator's totals.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <filesystem>
#include <map>

#include "analysis/summarize/summarize.hpp"
#include "reading/byte_source.hpp"
#include "reading/trace_reader.hpp"
#include "support/test_support.hpp"

using namespace tracediff;
namespace fs = std::filesystem;

namespace {

// tracegen's --memory numbers (tools/tracegen/generator.hpp).
constexpr std::int64_t k_op = 4096, k_base = 1073741824, k_unit = 2097152, k_host = 1048576;

model::TraceFile read_one(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    auto r = reading::read_trace_file(e.path().string(), {});
    BOOST_REQUIRE(!r.skipped);
    return std::move(r.file);
  }
  BOOST_FAIL("no trace in " << dir);
  return {};
}

// CPU operator calls, and calls of one name, per step index.
std::map<std::uint32_t, std::int64_t> calls(const model::FileSummary& s, const std::string& name = {}) {
  std::map<std::uint32_t, std::int64_t> out;
  for (const auto& c : s.cells)
    if (s.keys[c.key].kind == model::Kind::cpu_op && (name.empty() || s.keys[c.key].name == name))
      out[c.step] += static_cast<std::int64_t>(c.count);
  return out;
}

const model::MemoryStep* find(const model::FileSummary& s, int type, int id, std::uint32_t step) {
  for (const auto& m : s.memory)
    if (m.device_type == type && m.device_id == id && m.step == step) return &m;
  return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(summarize_memory)

BOOST_AUTO_TEST_CASE(gives_each_step_and_device_its_exact_figures) {
  constexpr std::int64_t leak = 3000000, peak = 100000000;
  const auto dir = test::tracegen("mem-exact", {"--ranks", "1", "--steps", "5", "--layers", "2", "--memory",
                                                "--memory-leak", std::to_string(leak), "--memory-peak",
                                                "aten::addmm=" + std::to_string(peak)});
  const auto file = read_one(dir);
  const auto s = analysis::summarize_file(file);
  BOOST_TEST_REQUIRE(s.steps.size() == 5u);
  BOOST_TEST(s.memory.size() == 10u);  // two devices, every step
  const auto ops = calls(s), addmm = calls(s, "aten::addmm");
  for (std::uint32_t k = 0; k < 5; ++k) {
    BOOST_TEST_CONTEXT("step " << k) {
      const auto* gpu = find(s, 1, 0, k);
      BOOST_TEST_REQUIRE(gpu);
      const std::int64_t before = k_base + leak * k;  // what the step begins with
      BOOST_TEST(gpu->peak_allocated == before + peak);
      BOOST_TEST(gpu->peak_reserved == (before + peak + k_unit - 1) / k_unit * k_unit);
      BOOST_TEST(gpu->peak_growth == peak);
      BOOST_TEST(gpu->net_change == leak);
      BOOST_TEST(gpu->allocations == static_cast<std::uint64_t>(ops.at(k) + addmm.at(k) + 1));
      BOOST_TEST(gpu->allocated_bytes == k_op * ops.at(k) + peak * addmm.at(k) + leak);
      const auto* host = find(s, 0, -1, k);
      BOOST_TEST_REQUIRE(host);
      BOOST_TEST(host->peak_allocated == k_host);
      BOOST_TEST(host->peak_reserved == k_host);
      BOOST_TEST(host->peak_growth == k_host);
      BOOST_TEST(host->net_change == 0);
      BOOST_TEST(host->allocations == 1u);
      BOOST_TEST(host->allocated_bytes == k_host);
    }
  }
}

// A device with fewer memory events than the file has steps (a stray allocation on a
// device of its own) gets memory steps only where it has events: memory steps stay within
// the events (devices x steps were kept, 2.25 million from 1,500 events). A device with
// an event in most steps keeps every step, the empty one carrying its level.
BOOST_AUTO_TEST_CASE(memory_steps_stay_within_the_events) {
  const auto mem = [](long ts, int device, long bytes, long total) {
    return "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, "
           "\"ts\": " + std::to_string(ts) + ", \"args\": {\"Device Type\": 1, \"Device Id\": " + std::to_string(device) +
           ", \"Addr\": 4096, \"Bytes\": " + std::to_string(bytes) + ", \"Total Allocated\": " + std::to_string(total) +
           ", \"Total Reserved\": 8192}}";
  };
  std::string events;
  for (int k = 0; k < 4; ++k)
    events += test::x_event("user_annotation", "ProfilerStep#" + std::to_string(k + 1), 1, 1, 100 * k, 90) + ",";
  // Device 0: events in steps 0, 1 and 3 (4 events, 4 steps); device 5: one, in step 2.
  events += mem(10, 0, 512, 512) + "," + mem(20, 0, 512, 1024) + "," + mem(110, 0, 256, 1280) + "," +
            mem(310, 0, -512, 768) + "," + mem(210, 5, 64, 64);
  const auto trace = "{\"traceEvents\": [" + events + "]}";
  reading::ByteSource src{std::string_view(trace)};
  auto r = reading::read_trace(src, "t.json", {});
  BOOST_REQUIRE(!r.skipped);
  const auto s = analysis::summarize_file(r.file);
  BOOST_TEST(s.memory.size() == 5u);  // device 0 in all 4 steps, device 5 in its one
  const auto* empty = find(s, 1, 0, 2);
  BOOST_TEST_REQUIRE(empty);  // the step without device 0's events: its level, no allocations
  BOOST_TEST(empty->peak_allocated == 1280);
  BOOST_TEST(empty->allocations == 0u);
  BOOST_TEST(empty->net_change == 0);
  BOOST_TEST(!find(s, 1, 5, 0));
  const auto* stray = find(s, 1, 5, 2);
  BOOST_TEST_REQUIRE(stray);
  BOOST_TEST(stray->allocations == 1u);
  BOOST_TEST(stray->allocated_bytes == 64);
}

// PyTorch before 1.10: Bytes alone (no totals, no device), and the host events' tid a
// string where the memory events' is a number.
BOOST_AUTO_TEST_CASE(reads_old_traces_bytes_alone) {
  constexpr std::int64_t leak = 65536;
  const auto dir = test::tracegen("mem-old", {"--ranks", "1", "--steps", "3", "--layers", "1", "--memory",
                                              "--memory-old", "--memory-leak", std::to_string(leak)});
  const auto file = read_one(dir);
  BOOST_TEST_REQUIRE(!file.memory.empty());
  // Each memory event is on a thread some host event ran on.
  for (const auto& m : file.memory) {
    BOOST_TEST(m.device_type == -1);
    BOOST_TEST(m.total_allocated == -1);
    bool on_host_thread = false;
    for (const auto& e : file.events)
      if (e.kind == model::Kind::cpu_op && e.tid == m.tid && e.pid == m.pid) on_host_thread = true;
    BOOST_TEST(on_host_thread);
  }
  const auto s = analysis::summarize_file(file);
  const auto ops = calls(s);
  BOOST_TEST(s.memory.size() == 3u);
  for (std::uint32_t k = 0; k < 3; ++k) {
    const auto* m = find(s, -1, -1, k);
    BOOST_TEST_REQUIRE(m);
    BOOST_TEST(m->peak_allocated == -1);
    BOOST_TEST(m->peak_reserved == -1);
    BOOST_TEST(m->net_change == leak);
    BOOST_TEST(m->peak_growth == leak + k_op);  // the leak, then later operators' temporaries
    BOOST_TEST(m->allocations == static_cast<std::uint64_t>(ops.at(k) + 1));
    BOOST_TEST(m->allocated_bytes == k_op * ops.at(k) + leak);
  }
}

BOOST_AUTO_TEST_CASE(a_trace_without_memory_events_has_no_memory) {
  const auto dir = test::tracegen("mem-none", {"--ranks", "1", "--steps", "2", "--layers", "1"});
  const auto s = analysis::summarize_file(read_one(dir));
  BOOST_TEST(s.memory.empty());
}

// The real trace with memory events (kineto-trace-format.md: 28,010 of them), both
// readers; its per-step figures were checked against a separate Python computation.
BOOST_AUTO_TEST_CASE(reads_every_memory_event_of_a_real_trace,
                     *boost::unit_test::precondition(test::needs_traces(test::large_traces()))) {
  const auto path = test::trace_path("formats/large-216k-events.json.gz");
  BOOST_TEST_REQUIRE(!path.empty());
  const auto r = reading::read_trace_file(path, {});
  BOOST_TEST(r.file.memory.size() == 28010u);
  const auto s = analysis::summarize_file(r.file);
  BOOST_TEST(s.steps.size() == 5u);
  BOOST_TEST(s.memory.size() == 10u);  // the host and GPU 1, every step
  for (const auto& m : s.memory)
    if (m.device_type == 1) BOOST_TEST(m.net_change == 0);  // a steady training loop leaks nothing
}

BOOST_AUTO_TEST_SUITE_END()
