// The fast path must read exactly what the tolerant reader reads, or give up.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "reading/fast_reader.hpp"
#include "reading/trace_reader.hpp"
#include "support/reader_diff.hpp"
#include "support/test_support.hpp"

using namespace tracediff;
namespace fs = std::filesystem;

namespace {

reading::ReadOptions options(bool hta) {
  reading::ReadOptions o;
  o.hta_compat = hta;
  return o;
}

std::optional<reading::ReadResult> fast(std::string_view bytes, bool hta = false,
                                        std::size_t window = reading::k_fast_window) {
  reading::ByteSource source(bytes);
  return reading::read_trace_fast(source, "mem.json", options(hta), window);
}

reading::ReadResult tolerant(std::string_view bytes, bool hta = false) {
  reading::ByteSource source(bytes);
  return reading::read_trace(source, "mem.json", options(hta));
}

// Escapes, nesting, trailing commas, every kind of value in every kept field.
const std::string k_trace = "\xEF\xBB\xBF" R"JSON( {
  "schemaVersion": 1, "x": [1, -2.5e+3, true, false, null, {"a": [{}]}, "s\"\\\/\b\f\n\r\t\u00e9"],
  "deviceProperties": [{"id": 0, "name": "A100", "name": "H100"}, 7, [{"name": "no"}], {"name": 3}],
  "distributedInfo": {"rank": "2", "world_size": 4, "nested": {"rank": 9}},
  "cuda_runtime_version": 12040, "cuda_driver_version": "12020",
  "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 2, "ts": 100.5, "dur": 20.25,
   "args": {"External id": 3, "Input Dims": [[2, 3], []], "Call stack": "a\\b.py(1)"}},
  {"ph": "X", "cat": "Kernel", "name": "gemm", "pid": 0, "tid": "stream 7", "ts": "130", "dur": 4e0,
   "args": {"correlation": 42, "stream": "7", "device": 0,}, },
  {"ph": "X", "cat": "kernel", "name": "triton_poi_0", "pid": 0, "tid": 7, "ts": 140, "dur": 2,
   "args": {"kernel_flop": 2097152, "kernel_num_gb": 0.0125, "kernel_num_gb": 1.5e-2}},
  {"ph": "X", "cat": "kernel", "name": "triton_poi_1", "pid": 0, "tid": 7, "ts": 143, "dur": 2,
   "args": {"kernel_flop": "7", "kernel_num_gb": -1}},
  {"ph": "X", "c\u0061t": "cpu_op", "name": "q\"uote\\\/\u00e9\u4e2d\u0000\n", "pid": "p\u0031", "tid": 2, "ts": 102, "dur": 3},
  {"ph": "X", "cat": "cpu_op", "name": "neg", "pid": 1, "tid": 2, "ts": 101, "dur": -1},
  {"ph": "X", "cat": "cpu_op", "name": "no ts", "pid": 1, "tid": 2, "dur": 1},
  {"ph": "X", "cat": "cpu_op", "name": "bad dur", "pid": 1, "tid": 2, "ts": 1, "dur": null},
  {"ph": "X", "name": "no cat", "pid": 1, "tid": 2, "ts": 1, "dur": 1},
  {"ph": "X", "cat": "cpu_op", "name": {"x": 1}, "pid": true, "tid": [2], "ts": 0.0001, "dur": 1E2},
  {"ph": "X", "cat": "Trace", "name": "trace", "pid": 1, "tid": 2, "ts": 1, "dur": 1},
  {"ph": "i", "name": "Record Window End", "s": "g", "pid": "", "tid": "", "ts": 200},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 2, "ts": 101.5,
   "args": {"Ev Idx": 9, "Device Type": 1, "Device Id": 0, "Addr": 139926520725504, "Bytes": 5242880,
            "Total Allocated": 5435638784, "Total Reserved": 12782141440}},
  {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": "2", "ts": "102",
   "args": {"Bytes": -512, "Device Type": 0, "Device Id": -1, "Total Allocated": "7", "Addr": null}},
  {"ph": "i", "name": "[memory]", "pid": 1, "tid": 2, "ts": 103, "args": {"Bytes": 1.5}},
  {"ph": "i", "name": "[memory]", "pid": 1, "tid": 2, "args": {"Bytes": 1}},
  {}, 5, [], "str",
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 7, "ts": 131, "dur": 2,
   "args": {"correlation": 43, "correlation": 44}, "args": {"stream": 7}}
  ],
  "traceName": "x", "baseTimeNanoseconds": 1700000000000000000,
  "traceEvent": [{"ph": "X", "cat": "cpu_op", "name": "not the events", "pid": 1, "tid": 2, "ts": 1, "dur": 1}]
} trailing bytes are ignored)JSON";

// Top-level keys given twice: the last one counts in both readers (Python's json.load).
const std::string k_twice = R"JSON({
  "distributedInfo": {"rank": 3, "world_size": 8},
  "deviceProperties": [{"name": "A100"}, {"name": "A100"}],
  "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "first", "pid": 1, "tid": 2, "ts": 10, "dur": 1},
  {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1, "tid": 2, "ts": 11, "args": {"Bytes": 8}},
  {"ph": "X", "cat": "Kernel", "name": "k", "pid": 0, "tid": 7, "ts": 12, "dur": 1, "args": {"correlation": 1, "Seq": 4}}
  ],
  "distributedInfo": {"world_size": 4},
  "traceEvents": 7,
  "deviceProperties": [{"name": "H100"}],
  "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "last", "pid": 1, "tid": 2, "ts": 20.5, "dur": 2}
  ]
})JSON";

}  // namespace

BOOST_AUTO_TEST_SUITE(fast_reader)

// Inductor's kernel_flop and kernel_num_gb (the last given counts; a string or a
// negative number is no figure), read alike by both readers (the case below).
BOOST_AUTO_TEST_CASE(reads_inductors_kernel_figures) {
  const auto f = fast(k_trace);
  BOOST_REQUIRE(f);
  BOOST_REQUIRE_EQUAL(f->file.kernel_work.size(), 1u);
  const auto& w = f->file.kernel_work[0];
  BOOST_TEST(f->file.pool.get(f->file.events[w.event].name) == "triton_poi_0");
  BOOST_TEST(w.flop == 2097152.0);
  BOOST_TEST(w.bytes == 1.5e7);
}

BOOST_AUTO_TEST_CASE(agrees_with_the_tolerant_reader_on_every_kind_of_value) {
  for (const bool hta : {false, true}) {
    // Every window size up to 64 bytes: each token sits across a window's edge once.
    for (std::size_t window = 1; window <= 64; ++window) {
      const auto f = fast(k_trace, hta, window);
      BOOST_TEST_REQUIRE(f.has_value(), "window " << window);
      BOOST_TEST(f->file.events.size() >= 4u);
      BOOST_TEST(f->file.rank == 2);
      BOOST_TEST(test::first_difference(*f, tolerant(k_trace, hta)) == "", "window " << window);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_top_level_key_twice_the_last_counts) {
  for (const bool hta : {false, true}) {
    for (std::size_t window = 1; window <= 64; ++window) {
      const auto f = fast(k_twice, hta, window);
      BOOST_TEST_REQUIRE(f.has_value(), "window " << window);
      const auto& file = f->file;
      BOOST_TEST_REQUIRE(file.events.size() == 1u);
      BOOST_TEST(file.pool.get(file.events[0].name) == "last");
      BOOST_TEST(file.total_events == 1u);
      BOOST_TEST(file.memory.empty());
      BOOST_TEST(file.comm_tags.empty());
      // The later distributedInfo has no rank: the earlier one's is not kept.
      BOOST_TEST((file.rank_source == model::RankSource::fallback));
      BOOST_TEST(file.world_size.value_or(-1) == 4);
      BOOST_TEST(file.gpu_names == std::vector<std::string>{"H100"});
      BOOST_TEST(file.diagnostics.count(model::DiagId::file_duplicate_key) == 3u);
      if (hta) BOOST_TEST(file.hta.size() == 1u);
      if (hta) BOOST_TEST(file.hta_float_mode);
      BOOST_TEST(test::first_difference(*f, tolerant(k_twice, hta)) == "", "window " << window);
    }
  }
  // Each byte replaced: the fast reader gives up or reads what the tolerant one reads.
  const std::string replacements = "\",:{}[]0 x";
  for (std::size_t i = 0; i < k_twice.size(); ++i)
    for (const char c : replacements) {
      const std::string v = k_twice.substr(0, i) + c + k_twice.substr(i + 1);
      if (const auto f = fast(v, false, 1 + i % 61))
        BOOST_TEST(test::first_difference(*f, tolerant(v)) == "", "byte " << i << " = " << c);
    }
}

// [memory] instant events beside the events: exact values, the same from both readers;
// one with a fractional Bytes or without ts is dropped.
BOOST_AUTO_TEST_CASE(keeps_memory_events_beside_the_events) {
  const auto f = fast(k_trace);
  BOOST_TEST_REQUIRE(f.has_value());
  const auto& m = f->file.memory;
  BOOST_TEST_REQUIRE(m.size() == 2u);
  BOOST_TEST(m[0].ts_ns == 101500);
  BOOST_TEST(m[0].bytes == 5242880);
  BOOST_TEST(m[0].total_allocated == 5435638784);
  BOOST_TEST(m[0].total_reserved == 12782141440);
  BOOST_TEST(m[0].addr == 139926520725504u);
  BOOST_TEST(m[0].device_type == 1);
  BOOST_TEST(m[0].device_id == 0);
  BOOST_TEST(m[1].bytes == -512);
  BOOST_TEST(m[1].total_allocated == -1);  // a string is no total
  BOOST_TEST(m[1].total_reserved == -1);
  BOOST_TEST(m[1].addr == 0u);
  BOOST_TEST(m[1].device_type == 0);
  BOOST_TEST(m[1].device_id == -1);
  // A host tid written as text is the same thread as the number.
  BOOST_TEST(f->file.pool.get(m[1].tid) == "2");
  BOOST_TEST(m[1].tid == m[0].tid);
  BOOST_TEST(m[0].tid == f->file.events[0].tid);
  BOOST_TEST(tolerant(k_trace).file.memory.size() == 2u);
  BOOST_TEST(!fast(k_trace, true)->file.memory.size());  // --hta-compat reads what HTA reads
}

BOOST_AUTO_TEST_CASE(agrees_or_gives_up_on_every_one_byte_mutation) {
  // Each byte deleted, or replaced by a character that matters to JSON: the fast
  // path either gives up or reads what the tolerant reader reads.
  const std::string replacements = "\"\\,:{}[]0-.eE tnx\x01";
  std::size_t accepted = 0, total = 0;
  for (std::size_t i = 0; i < k_trace.size(); ++i) {
    std::vector<std::string> variants{k_trace.substr(0, i) + k_trace.substr(i + 1)};
    for (const char c : replacements)
      if (c != k_trace[i]) variants.push_back(k_trace.substr(0, i) + c + k_trace.substr(i + 1));
    for (const auto& v : variants) {
      for (const bool hta : {false, true}) {
        ++total;
        const auto f = fast(v, hta, 1 + (i + v.size()) % 97);
        if (!f) continue;
        ++accepted;
        const auto d = test::first_difference(*f, tolerant(v, hta));
        BOOST_TEST(d == "", "byte " << i << " of " << v.size() << ": " << d);
      }
    }
  }
  BOOST_TEST_MESSAGE("mutations: " << accepted << " of " << total << " taken by the fast path");
  BOOST_TEST(accepted > total / 4);  // it does take most harmless ones
}

BOOST_AUTO_TEST_CASE(gives_up_where_the_tolerant_reader_is_needed) {
  const std::string ok = test::trace_json({test::x_event("cpu_op", "aten::mm", 1, 2, 10, 5)});
  BOOST_TEST(fast(ok).has_value());
  const std::vector<std::string> broken{
      ok.substr(0, ok.size() - 5),                                        // cut short
      "[" + test::x_event("cpu_op", "aten::mm", 1, 2, 10, 5) + "]",      // legacy array
      R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "n", "pid": 1, "tid": 1, "ts": NaN, "dur": 1}]})",
      R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "na)" "\x01" R"(me": "n", "ts": 1, "dur": 1}]})",
      R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "n", "ts": 1, "dur": 1}}]})",
      R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "\ud800", "ts": 1, "dur": 1}]})",
      R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "n", "ts": 1, "dur": 1e999999999}]})",
      R"({"no events": []})",
      "",
      test::gzip_bytes(ok).substr(0, 40),  // gzip cut short
  };
  for (const auto& b : broken) {
    BOOST_TEST(!fast(b).has_value(), b.substr(0, 80));
    // What the program calls still reads them, with the tolerant reader.
    BOOST_TEST(test::first_difference(reading::read_trace_bytes(b, "mem.json", options(false)), tolerant(b)) == "");
  }
}

namespace {
void agrees_on_each(const std::vector<fs::path>& files) {
  for (const auto& path : files) {
    const std::string bytes = test::read_file(path.string());
    for (const bool hta : {false, true}) {
      const auto f = fast(bytes, hta);
      BOOST_TEST(f.has_value(), path);
      if (f) BOOST_TEST(test::first_difference(*f, tolerant(bytes, hta)) == "", path << (hta ? " (hta)" : ""));
    }
  }
}
}  // namespace

// tests/data's traces and the examples ...
BOOST_AUTO_TEST_CASE(takes_every_real_trace_and_agrees) {
  std::vector<fs::path> files;
  for (const auto& f : test::data_trace_files()) files.emplace_back(f);
  for (const auto& e : fs::recursive_directory_iterator(fs::path(TRACEDIFF_SOURCE_DIR) / "examples"))
    if (e.is_regular_file() && e.path().string().find(".json") != std::string::npos &&
        !e.path().string().ends_with(".tdsum.json"))  // examples/series: summaries, not traces
      files.push_back(e.path());
  BOOST_TEST(files.size() >= 19u);
  agrees_on_each(files);
}

// ... and the large ones of ../shared: skipped without it.
BOOST_AUTO_TEST_CASE(takes_every_large_trace_and_agrees,
                     *boost::unit_test::precondition(test::needs_traces(test::large_traces()))) {
  std::vector<fs::path> files;
  for (const auto& f : test::large_trace_files()) files.emplace_back(f);
  BOOST_TEST(files.size() >= 4u);
  agrees_on_each(files);
}

// A file read alone is inflated ahead on a second thread: the same result.
BOOST_AUTO_TEST_CASE(reading_ahead_changes_nothing) {
  std::vector<std::string> files = test::all_trace_files();
  const std::string dir = test::temp_dir("read-ahead");
  files.push_back(dir + "/valid.json.gz");
  test::write_file(files.back(), test::gzip_bytes(k_trace));
  files.push_back(dir + "/cut.json.gz");  // the fast path gives up at the cut
  const std::string gz = test::gzip_bytes(k_trace);
  test::write_file(files.back(), gz.substr(0, gz.size() / 2));
  for (const auto& path : files)
    for (const bool hta : {false, true}) {
      auto o = options(hta);
      const auto plain = reading::read_trace_file(path, o);
      o.read_ahead = true;
      const auto ahead = reading::read_trace_file(path, o);
      BOOST_TEST(test::first_difference(plain, ahead) == "", path << (hta ? " (hta)" : ""));
      BOOST_TEST((plain.skipped == ahead.skipped), path);
    }
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(units_larger_than_the_window_are_read_whole) {
  // A 3 MiB name and 3 MiB of skipped args cross the 1 MiB window several times.
  const std::string big(3 << 20, 'n');
  const std::string json = R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": ")" + big +
                           R"(", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"x": ")" + big + R"("}}]})";
  const auto f = fast(json);
  // Names over 1 MiB are truncated with a warning: the tolerant reader does that.
  BOOST_TEST(!f.has_value());
  const std::string ok_json = R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "n", "pid": 1, "tid": 1,)"
                              R"( "ts": 1, "dur": 1, "args": {"x": ")" + big + R"("}}]})";
  const auto g = fast(ok_json);
  BOOST_TEST_REQUIRE(g.has_value());
  BOOST_TEST(test::first_difference(*g, tolerant(ok_json)) == "");
}

BOOST_AUTO_TEST_SUITE_END()
