// `tracediff summarize` then a comparison of the summary always works, on traces
// with extreme values: thousands of 78-hour events in a row or at once (durations
// that add up past int64), 18-digit step numbers, out-of-range and non-finite ts
// and dur, huge world sizes and odd CUDA versions, names that differ only in invalid
// bytes. The summary compares exactly as the traces do, and no figure overflows.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;

namespace {

constexpr long k_78h_us = 280'000'000'000;  // just under the reader's 78-hour limit

std::string event(const std::string& cat, const std::string& name, int tid, const std::string& ts,
                  const std::string& dur, const std::string& args = "") {
  return "{\"ph\":\"X\",\"cat\":\"" + cat + "\",\"name\":\"" + name + "\",\"pid\":1,\"tid\":" + std::to_string(tid) +
         ",\"ts\":" + ts + ",\"dur\":" + dur + (args.empty() ? "" : ",\"args\":" + args) + "}";
}

std::string trace(const std::vector<std::string>& events, const std::string& meta = "") {
  std::string s = "{" + meta + (meta.empty() ? "" : ", ") + "\"traceEvents\": [";
  for (std::size_t i = 0; i < events.size(); ++i) s += (i ? ",\n" : "\n") + events[i];
  return s + "\n]}";
}

// Each shape, as one trace file.
std::vector<std::pair<std::string, std::string>> extreme_traces() {
  std::vector<std::pair<std::string, std::string>> out;
  {  // 10,000 78-hour operators one after another: 89 years, 2.8e18 ns in all
    std::vector<std::string> e;
    for (long i = 0; i < 10'000; ++i)
      e.push_back(event("cpu_op", "aten::mm", 1, std::to_string(i * k_78h_us), std::to_string(k_78h_us)));
    out.emplace_back("in-a-row", trace(e));
  }
  {  // 10,000 at once on as many threads, with kernels on as many streams
    std::vector<std::string> e;
    for (int i = 0; i < 10'000; ++i) {
      e.push_back(event("cpu_op", "aten::mm", i + 1, "0", std::to_string(k_78h_us)));
      if (i % 2 == 0)
        e.push_back("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":" + std::to_string(7 + i) +
                    ",\"ts\":0,\"dur\":" + std::to_string(k_78h_us) + ",\"args\":{\"device\":0,\"stream\":" +
                    std::to_string(7 + i) + "}}");
    }
    out.emplace_back("at-once", trace(e));
  }
  {  // 2,000 steps numbered at the top of the 18-digit range, each 78 hours
    std::vector<std::string> e;
    for (long i = 0; i < 2'000; ++i) {
      const auto ts = std::to_string(i * k_78h_us);
      e.push_back(event("user_annotation", "ProfilerStep#" + std::to_string(999'999'999'999'999'999 - i), 1, ts,
                        std::to_string(k_78h_us)));
      e.push_back(event("cpu_op", "aten::add", 1, ts, std::to_string(k_78h_us - 1)));
    }
    out.emplace_back("many-long-steps", trace(e));
  }
  {  // Odd values: each is skipped, repaired or kept, as the reader documents
    std::vector<std::string> e = {
        event("user_annotation", "ProfilerStep#1", 1, "0", "1000"),
        event("user_annotation", "ProfilerStep#-1", 1, "2000", "1000"),
        event("user_annotation", "ProfilerStep#99999999999999999999", 1, "4000", "1000"),
        event("cpu_op", "nan-ts", 1, "NaN", "3"),
        event("cpu_op", "inf-dur", 1, "10", "Infinity"),
        event("cpu_op", "int64-ts", 1, "9223372036854775807", "1"),
        event("cpu_op", "int64-dur", 1, "20", "9223372036854775807"),
        event("cpu_op", "neg-dur", 1, "30", "-5"),
        event("cpu_op", "inv\xff", 1, "40", "3"),
        event("cpu_op", "inv\xfe", 1, "50", "3"),
        event("cpu_op", "nul\\u0000esc\\u001b[2J", 1, "60", "3"),
        event("cpu_op", "zero", 1, "70", "0"),
        event("cpu_op", "zero", 1, "71", "0"),
    };
    out.emplace_back("odd-values",
                     trace(e, "\"distributedInfo\": {\"rank\": 7, \"world_size\": 1099511627776}, "
                              "\"cuda_runtime_version\": -5, \"cuda_driver_version\": 1e30, "
                              "\"deviceProperties\": [{\"name\": \"G\\u001b[2J\"}]"));
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(summary_roundtrip)

BOOST_AUTO_TEST_CASE(summarize_then_compare_always_works) {
  for (const auto& [name, body] : extreme_traces()) {
    BOOST_TEST_CONTEXT(name) {
      const auto dir = temp_dir("roundtrip-" + name);
      const auto file = dir + "/" + name + ".json";
      const auto sum = dir + "/" + name + ".tdsum.json";
      write_file(file, body);
      auto r = run_cli({"summarize", file, "-o", sum, "-q"});
      BOOST_TEST(r.exit_code == 0, r.err);
      // The summary against the trace: read back without complaint.
      r = run_cli({sum, file, "--json", dir + "/mixed.json", "-q"});
      BOOST_TEST(r.exit_code == 0, r.err);
      // The summary compares exactly as the traces do.
      const auto from_summary = run_cli({sum, sum, "--csv", "-", "-q"});
      const auto from_traces = run_cli({file, file, "--csv", "-", "-q"});
      BOOST_TEST(from_summary.exit_code == 0, from_summary.err);
      BOOST_TEST(from_traces.exit_code == 0, from_traces.err);
      BOOST_TEST(from_summary.out == from_traces.out);
      // No figure overflowed: every headline value is a duration, never negative.
      const auto j = parse_json(read_file(dir + "/mixed.json")).as_object();
      for (const auto& h : j.at("headline").as_array())
        for (const char* side : {"control", "test"})
          BOOST_TEST(h.at(side).to_number<double>() >= 0.0, name << " " << h.at("figure").as_string() << " " << side);
      // Summarising the summary's comparison again (a merge of one) reads back too.
      r = run_cli({"merge", sum, "-o", dir + "/merged.tdsum.json"});
      BOOST_TEST(r.exit_code == 0, r.err);
      r = run_cli({dir + "/merged.tdsum.json", file, "--csv", "-", "-q"});
      BOOST_TEST(r.exit_code == 0, r.err);
    }
  }
}

BOOST_AUTO_TEST_CASE(durations_past_int64_are_clamped_alike_for_traces_and_summaries) {
  const auto body = extreme_traces()[1].second;  // at once: host busy alone passes int64
  const auto dir = temp_dir("roundtrip-clamp");
  write_file(dir + "/t.json", body);
  BOOST_TEST(run_cli({"summarize", dir + "/t.json", "-o", dir + "/t.tdsum.json", "-q"}).exit_code == 0);
  for (const auto& side : {dir + "/t.json", dir + "/t.tdsum.json"}) {
    const auto r = run_cli({side, side, "--json", "-", "-q"});
    BOOST_TEST(r.exit_code == 0, r.err);
    const auto j = parse_json(r.out).as_object();
    BOOST_TEST(j.at("diagnostics").at("counts").as_object().contains("summary_durations_clamped"), side);
  }
}

BOOST_AUTO_TEST_CASE(json_errors_in_a_summary_name_their_byte) {
  const auto dir = temp_dir("roundtrip-offset");
  const std::string head = "{\"format\": \"tracediff-summary\", \"schema_version\": 2, \"label\": ";
  write_file(dir + "/bad.tdsum.json", head + "x}");
  auto r = run_cli({dir + "/bad.tdsum.json", dir + "/bad.tdsum.json"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("bad.tdsum.json: not a valid tracediff summary: JSON error at byte " +
                        std::to_string(head.size()) + ": ") != std::string::npos,
             r.err);
  write_file(dir + "/cut.tdsum.json", head + "\"t\", \"inputs\": [");
  r = run_cli({dir + "/cut.tdsum.json", dir + "/cut.tdsum.json"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("JSON error at byte " + std::to_string(head.size() + 16) + ": ") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
