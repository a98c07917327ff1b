#include <boost/test/unit_test.hpp>

#include "reading/trace_reader.hpp"
#include "support/test_support.hpp"

using namespace tracediff;
using model::DiagId;

namespace {

reading::ReadResult read(const std::string& bytes, bool hta = false) {
  reading::ByteSource src{std::string_view(bytes)};
  reading::ReadOptions opt;
  opt.hta_compat = hta;
  return reading::read_trace(src, "mem.json", opt);
}

const std::string k_two_events = R"({
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA A100"}],
  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8},
  "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 2, "ts": 100.5, "dur": 20.25},
  {"ph": "X", "cat": "Kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 130, "dur": 4,
   "args": {"correlation": 42, "stream": 7, "device": 0}},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 200}
  ],
  "traceName": "x", "baseTimeNanoseconds": 1700000000000000000
})";

}  // namespace

BOOST_AUTO_TEST_SUITE(trace_reader)

BOOST_AUTO_TEST_CASE(reads_events_metadata_and_exact_times) {
  const auto r = read(k_two_events);
  BOOST_TEST(!r.skipped);
  const auto& f = r.file;
  BOOST_TEST(f.rank == 3);
  BOOST_TEST((f.rank_source == model::RankSource::distributed_info));
  BOOST_TEST(*f.world_size == 8);
  BOOST_TEST(*f.base_time_ns == 1700000000000000000LL);
  BOOST_TEST(f.gpu_names.size() == 1u);
  BOOST_TEST(f.total_events == 3u);
  BOOST_REQUIRE(f.events.size() == 2u);
  BOOST_TEST(f.events[0].ts_ns == 100500);
  BOOST_TEST(f.events[0].dur_ns == 20250);
  BOOST_TEST(f.pool.get(f.events[0].name) == "aten::mm");
  // Legacy category spelling is normalised and classified as GPU work.
  BOOST_TEST(f.pool.get(f.events[1].category) == "kernel");
  BOOST_TEST((f.events[1].kind == model::Kind::kernel));
  BOOST_TEST(f.events[1].correlation == 42);
  BOOST_TEST(f.diagnostics.total() == 0u);
}

BOOST_AUTO_TEST_CASE(gzip_is_detected_by_magic_bytes) {
  const auto r = read(test::gzip_bytes(k_two_events));
  BOOST_TEST(!r.skipped);
  BOOST_TEST(r.file.gzip);
  BOOST_TEST(r.file.events.size() == 2u);
  // Two gzip members concatenated are one valid stream.
  const auto half = k_two_events.size() / 2;
  const auto two = read(test::gzip_bytes(k_two_events.substr(0, half)) +
                        test::gzip_bytes(k_two_events.substr(half)));
  BOOST_TEST(two.file.events.size() == 2u);
}

BOOST_AUTO_TEST_CASE(legacy_top_level_array) {
  const auto r = read(R"([{"ph":"X","cat":"Operator","name":"add","pid":"CPU functions","tid":1,"ts":1,"dur":2},
                          {"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":1}])");
  BOOST_TEST(!r.skipped);
  BOOST_REQUIRE(r.file.events.size() == 2u);
  BOOST_TEST(r.file.pool.get(r.file.events[0].category) == "cpu_op");
  BOOST_TEST((r.file.events[1].kind == model::Kind::runtime));
}

BOOST_AUTO_TEST_CASE(truncated_file_keeps_complete_events) {
  const auto cut = k_two_events.substr(0, k_two_events.find("\"gemm\""));
  const auto r = read(cut);
  BOOST_TEST(!r.skipped);
  BOOST_TEST(r.file.truncated);
  BOOST_TEST(r.file.events.size() == 1u);
  BOOST_TEST(r.file.diagnostics.count(DiagId::file_truncated) == 1u);
  // Cut gzip: the same events survive, reported as gzip damage.
  const auto gz = test::gzip_bytes(k_two_events);
  const auto g = read(gz.substr(0, gz.size() - 12));
  BOOST_TEST(!g.skipped);
  BOOST_TEST(g.file.diagnostics.count(DiagId::file_gzip_error) == 1u);
}

BOOST_AUTO_TEST_CASE(trailing_commas_are_accepted) {
  const auto r = read(R"({"traceEvents": [{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{"x":1,},},]})");
  BOOST_TEST(r.file.events.size() == 1u);
  BOOST_TEST(r.file.diagnostics.total() == 0u);
}

BOOST_AUTO_TEST_CASE(a_broken_event_costs_only_that_event) {
  std::string s = k_two_events;
  s.replace(s.find("aten::mm"), 8, "aten\"::mm");  // unescaped quote
  const auto r = read(s);
  BOOST_TEST(!r.skipped);
  BOOST_REQUIRE(r.file.events.size() == 1u);
  BOOST_TEST(r.file.pool.get(r.file.events[0].name) == "gemm");
  BOOST_TEST(r.file.diagnostics.count(DiagId::event_corrupt) == 1u);
  // Metadata after the events was still read.
  BOOST_TEST(*r.file.base_time_ns == 1700000000000000000LL);
}

BOOST_AUTO_TEST_CASE(non_traces_are_skipped_with_a_reason) {
  BOOST_TEST((*read(R"({"schema": "1.0.1", "nodes": []})").skipped == DiagId::file_skipped_not_trace));
  BOOST_TEST((*read("[[1,2,3,4],[5,6,7,8]]").skipped == DiagId::file_skipped_not_trace));
  BOOST_TEST((*read("hello").skipped == DiagId::file_skipped_not_json));
  BOOST_TEST((*read("").skipped == DiagId::file_skipped_empty));
}

BOOST_AUTO_TEST_CASE(hta_fields_follow_hta) {
  const auto r = read(R"J({"traceEvents": [
    {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":10,"dur":2,"args":{"stream":"7","correlation":5}},
    {"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":9,"dur":1,"args":{"stream":"0x0"}},
    {"ph":"i","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":9.5},
    {"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"x","ts":1,"dur":100}
  ]})J",
                      true);
  BOOST_REQUIRE(r.file.hta.size() == 2u);
  BOOST_TEST(r.file.hta[0].stream == 7);
  BOOST_TEST(r.file.hta[1].stream == -1);  // "0x0" is not numeric for pandas
  BOOST_TEST(r.file.hta[1].index == 1u);
  BOOST_TEST(r.file.hta_float_mode);  // the instant event's ts is fractional
}

BOOST_AUTO_TEST_SUITE_END()
