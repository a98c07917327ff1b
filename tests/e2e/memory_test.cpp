// Memory end to end: tracegen --memory's sides compared, the headline's peak memory
// with its verdict in every view, the JSON's memory per device, the gate on it, and a
// trace without memory events told how to record them.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>

#include "support/test_support.hpp"

using namespace tracediff::test;

namespace {

constexpr long long k_base = 1073741824, k_unit = 2097152;

const boost::json::object* figure(const boost::json::array& list, const std::string& id) {
  for (const auto& f : list)
    if (f.at("figure").as_string() == id) return &f.as_object();
  return nullptr;
}

double num(const boost::json::value& v) { return v.is_double() ? v.as_double() : static_cast<double>(v.as_int64()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(memory)

BOOST_AUTO_TEST_CASE(peak_memory_is_compared_in_every_view_and_gated) {
  // Test: aten::addmm holds 200 MB more while it runs, on the same steps and times.
  const auto c = tracegen("mem-c", {"--ranks", "1", "--steps", "8", "--layers", "2", "--jitter", "2", "--memory",
                                    "--memory-peak", "aten::addmm=100000000"});
  const auto t = tracegen("mem-t", {"--ranks", "1", "--steps", "8", "--layers", "2", "--jitter", "2", "--memory",
                                    "--memory-peak", "aten::addmm=300000000"});
  const auto dir = temp_dir("mem-out");
  const auto r = run_cli({c, t, "-o", dir + "/r.html", "--json", dir + "/r.json", "--markdown", dir + "/r.md",
                          "--fail-on", "peak_allocated>+5%", "--fail-on", "peak_reserved>+1GB", "--fail-on",
                          "peak_reserved>+100MiB"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 3, r.err);
  const auto j = parse_json(read_file(dir + "/r.json")).as_object();
  const auto& headline = j.at("headline").as_array();
  const auto* alloc = figure(headline, "peak_allocated");
  const auto* reserved = figure(headline, "peak_reserved");
  BOOST_TEST_REQUIRE(alloc);
  BOOST_TEST_REQUIRE(reserved);
  BOOST_TEST(alloc->at("unit").as_string() == "bytes");
  // The mean over 8 steps of base + peak (no leak): exact.
  BOOST_TEST(num(alloc->at("control")) == static_cast<double>(k_base + 100000000));
  BOOST_TEST(num(alloc->at("test")) == static_cast<double>(k_base + 300000000));
  BOOST_TEST(num(alloc->at("diff")) == 200000000.0);
  BOOST_TEST(alloc->at("verdict").as_string() == "slower");
  BOOST_TEST(alloc->at("significant").as_bool());
  const auto round_up = [](long long v) { return static_cast<double>((v + k_unit - 1) / k_unit * k_unit); };
  BOOST_TEST(num(reserved->at("control")) == round_up(k_base + 100000000));
  BOOST_TEST(num(reserved->at("test")) == round_up(k_base + 300000000));

  // Per device: GPU 0 and the host, each figure judged.
  const auto& memory = j.at("memory").as_array();
  BOOST_TEST_REQUIRE(memory.size() == 2u);
  BOOST_TEST(memory[0].at("device").as_string() == "CPU");
  BOOST_TEST(memory[1].at("device").as_string() == "GPU 0");
  const auto& gpu = memory[1].at("figures").as_array();
  BOOST_TEST(num(figure(gpu, "peak_growth")->at("diff")) == 200000000.0);
  BOOST_TEST(figure(gpu, "net_change")->at("verdict").as_string() == "same");
  BOOST_TEST(figure(gpu, "allocations")->at("unit").as_string() == "count");
  BOOST_TEST(figure(memory[0].at("figures").as_array(), "peak_allocated")->at("verdict").as_string() == "same");

  // The gate: +5 % fires, +1 GB (decimal) does not, +100 MiB does.
  const auto& gate = j.at("gate").as_array();
  BOOST_TEST_REQUIRE(gate.size() == 3u);
  BOOST_TEST(gate[0].at("outcome").as_string() == "fired");
  BOOST_TEST(gate[1].at("outcome").as_string() == "passed");
  BOOST_TEST(gate[2].at("outcome").as_string() == "fired");
  // In sizes: 1 GiB + 100 MB → 1 GiB + 300 MB.
  BOOST_TEST(std::string(gate[0].at("detail").as_string()).find("peak memory allocated +17.0% (1.17 GB \xE2\x86\x92 1.37 GB") !=
             std::string::npos);

  // Every view: the figure's label, both sides and the Δ as sizes.
  const auto html = read_file(dir + "/r.html"), md = read_file(dir + "/r.md");
  for (const auto* text : {&html, &md, &r.out}) {
    BOOST_TEST(text->find("Peak memory allocated") != std::string::npos);
    BOOST_TEST(text->find("Peak memory reserved") != std::string::npos);
    BOOST_TEST(text->find("+200 MB") != std::string::npos);
  }
  BOOST_TEST(r.out.find("profile_memory=True") == std::string::npos);
}

// A summary keeps each step's memory: summaries compare as their traces do.
BOOST_AUTO_TEST_CASE(more_memory_fails_the_verdict_without_a_gate) {
  // The same step times, 200 MB more at the peak: no gate, and still a red verdict that
  // names the memory (a faster step that needs more memory is a regression too).
  const auto c = tracegen("memv-c", {"--ranks", "1", "--steps", "8", "--layers", "2", "--jitter", "2", "--memory",
                                     "--memory-peak", "aten::addmm=100000000"});
  const auto t = tracegen("memv-t", {"--ranks", "1", "--steps", "8", "--layers", "2", "--jitter", "2", "--memory",
                                     "--memory-peak", "aten::addmm=300000000"});
  const auto dir = temp_dir("memv-out");
  const auto r = run_cli({c, t, "--json", dir + "/r.json", "-q"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto verdict = parse_json(read_file(dir + "/r.json")).as_object().at("verdict").as_object();
  BOOST_TEST(verdict.at("mark").as_string() == "fail");
  const std::string line(verdict.at("line").as_string());
  BOOST_TEST(line.find("peak memory allocated +") != std::string::npos, line);
  BOOST_TEST(line.find("more") != std::string::npos, line);
  // The same sides the other way round: less memory is no red mark.
  const auto back = run_cli({t, c, "--json", dir + "/b.json", "-q"});
  BOOST_REQUIRE_MESSAGE(back.exit_code == 0, back.err);
  const auto v2 = parse_json(read_file(dir + "/b.json")).as_object().at("verdict").as_object();
  BOOST_TEST(v2.at("mark").as_string() != "fail");
  BOOST_TEST(std::string(v2.at("line").as_string()).find("peak memory") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(summaries_keep_memory) {
  const auto c = tracegen("memsum-c", {"--ranks", "1", "--steps", "5", "--layers", "1", "--memory"});
  const auto t = tracegen("memsum-t", {"--ranks", "1", "--steps", "5", "--layers", "1", "--memory", "--memory-leak",
                                       "1000000"});
  const auto dir = temp_dir("memsum-out");
  for (const auto& [in, out] : {std::pair{c, dir + "/c.tdsum.json"}, std::pair{t, dir + "/t.tdsum.json"}})
    BOOST_REQUIRE_MESSAGE(run_cli({"summarize", in, "-o", out}).exit_code == 0, out);
  const auto from_traces = report_json(c, t), from_summaries = report_json(dir + "/c.tdsum.json", dir + "/t.tdsum.json");
  BOOST_TEST_REQUIRE(!from_traces.at("memory").as_array().empty());
  BOOST_TEST(from_traces.at("memory") == from_summaries.at("memory"));
  BOOST_TEST(from_traces.at("headline") == from_summaries.at("headline"));
}

BOOST_AUTO_TEST_CASE(traces_without_memory_say_how_to_record_it) {
  const auto c = tracegen("nomem-c", {"--ranks", "1", "--steps", "4", "--layers", "1"});
  const auto t = tracegen("nomem-t", {"--ranks", "1", "--steps", "4", "--layers", "1", "--seed", "2"});
  const auto dir = temp_dir("nomem-out");
  const auto r = run_cli({c, t, "--json", dir + "/r.json", "--fail-on", "peak_allocated>+5%"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto j = parse_json(read_file(dir + "/r.json")).as_object();
  BOOST_TEST(!figure(j.at("headline").as_array(), "peak_allocated"));
  BOOST_TEST(j.at("memory").as_array().empty());
  std::size_t notes = 0;
  for (const auto& n : j.at("notes").as_array())
    notes += std::string(n.as_string()).find("torch.profiler.profile(profile_memory=True)") != std::string::npos;
  BOOST_TEST(notes == 1u);
  BOOST_TEST(j.at("gate").as_array()[0].at("outcome").as_string() == "not_evaluated");
  BOOST_TEST(r.out.find("profile_memory=True") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(sizes_in_conditions_need_a_size_unit) {
  const auto c = tracegen("memu-c", {"--ranks", "1", "--steps", "3", "--layers", "1", "--memory"});
  for (const std::string bad : {"peak_allocated>+5ms", "peak_reserved>+5", "step_time>+1GB"}) {
    const auto r = run_cli({c, c, "--fail-on", bad});
    BOOST_TEST(r.exit_code == 2, bad);
  }
  for (const std::string good : {"peak_allocated>+1.5GiB", "peak_reserved>=512KiB", "peak_allocated>0", "peak_reserved>+2kB"}) {
    const auto r = run_cli({c, c, "--fail-on", good});
    BOOST_TEST(r.exit_code == 0, good << ": " << r.err);
  }
}

// Memory events without the allocator's totals, the GPU recorded as CUDA (type 1) on one
// side and as HIP (type 6) on the other: one GPU, and its figures in every view.
BOOST_AUTO_TEST_CASE(memory_without_totals_in_every_view_one_gpu_of_two_types) {
  const auto trace = [](int device_type, long bytes) {
    std::string events;
    for (int step = 0; step < 6; ++step) {
      const long t0 = 1000 * step;
      events += x_event("user_annotation", "ProfilerStep#" + std::to_string(step + 1), 1, 1, t0, 900) + ",";
      events += x_event("cpu_op", "aten::empty", 1, 1, t0 + 10, 50) + ",";
      events += "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, "
                "\"ts\": " + std::to_string(t0 + 20) + ", \"args\": {\"Device Type\": " + std::to_string(device_type) +
                ", \"Device Id\": 0, \"Addr\": " + std::to_string(4096 * (step + 1)) + ", \"Bytes\": " + std::to_string(bytes) +
                "}},";
    }
    events.pop_back();
    return "{\"traceEvents\": [" + events + "]}";
  };
  const auto dir = temp_dir("mem-types");
  write_file(dir + "/c.json", trace(1, 1 << 20));
  write_file(dir + "/t.json", trace(6, 2 << 20));
  const auto j = report_json(dir + "/c.json", dir + "/t.json");
  BOOST_TEST(j.at("memory").as_array().size() == 1u);
  const auto term = run_cli({dir + "/c.json", dir + "/t.json", "-o", dir + "/r.html"});
  BOOST_TEST(term.out.find("GPU 0: Peak growth") != std::string::npos, term.out);
  const auto md = run_cli({dir + "/c.json", dir + "/t.json", "--markdown", "-", "-q"});
  BOOST_TEST(md.out.find("| GPU 0: Peak growth |") != std::string::npos, md.out);
}

// Total Allocated constant at 2^60 on both sides: the memory chart's range is zero, and
// lo + 1 is lo above 2^53; the chart once drew NaN coordinates.
BOOST_AUTO_TEST_CASE(a_flat_memory_line_above_2_to_53_draws) {
  std::string events;
  for (int step = 0; step < 4; ++step) {
    const long t0 = 1000 * step;
    events += x_event("user_annotation", "ProfilerStep#" + std::to_string(step + 1), 1, 1, t0, 900) + ",";
    events += x_event("cpu_op", "aten::empty", 1, 1, t0 + 10, 50) + ",";
    for (const long bytes : {4096L, -4096L})
      events += "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, "
                "\"tid\": 1, \"ts\": " + std::to_string(t0 + (bytes > 0 ? 20 : 40)) +
                ", \"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Addr\": 4096, \"Bytes\": " + std::to_string(bytes) +
                ", \"Total Allocated\": 1152921504606846976, \"Total Reserved\": 1152921504606846976}},";
  }
  events.pop_back();
  const auto dir = temp_dir("mem-flat-2-60");
  write_file(dir + "/c.json", "{\"traceEvents\": [" + events + "]}");
  const auto r = run_cli({dir + "/c.json", dir + "/c.json", "-o", dir + "/r.html", "-q"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto html = read_file(dir + "/r.html");
  const auto chart = html.find("<svg class=\"step-chart mem-chart\"");
  BOOST_TEST_REQUIRE(chart != std::string::npos);
  const auto svg = html.substr(chart, html.find("</svg>", chart) - chart);
  BOOST_TEST(svg.find("nan") == std::string::npos, svg);
  BOOST_TEST(svg.find("inf") == std::string::npos, svg);
}

BOOST_AUTO_TEST_SUITE_END()
