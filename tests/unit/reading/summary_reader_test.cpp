// *.tdsum.json read back (reading/summary_reader.hpp): what the writer wrote, the same
// figures; anything malformed, newer or inconsistent a Fatal error that names the file.
#include <boost/test/unit_test.hpp>

#include <sstream>
#include <string>

#include "analysis/summarize/summarize.hpp"
#include "output/summary_writer.hpp"
#include "reading/summary_reader.hpp"
#include "reading/trace_reader.hpp"
#include "support/test_support.hpp"
#include "util/errors.hpp"

using namespace tracediff;

namespace {

model::SetSummary small_summary() {
  const auto trace = test::trace_json({
      test::x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 1000),
      test::x_event("cpu_op", "aten::mm", 1, 1, 100, 200),
      test::x_event("cuda_runtime", "cudaLaunchKernel", 1, 1, 150, 10, 1),
      test::x_event("kernel", "gemm", 0, 7, 300, 50, 1),
  });
  reading::ByteSource src{std::string_view(trace)};
  auto r = reading::read_trace(src, "rank3.json", {});
  BOOST_REQUIRE(!r.skipped);
  r.file.rank = 3;
  model::TraceSet set;
  set.label = "Control";
  set.files.push_back(std::move(r.file));
  return analysis::summarize_set(set);
}

std::string text_of(const model::SetSummary& s) {
  std::ostringstream out;
  output::write_summary(s, out);
  return out.str();
}

// The Fatal message for BYTES, or "" when they read.
std::string error_of(const std::string& bytes) {
  try {
    reading::read_summary_bytes(bytes, "x.tdsum.json");
  } catch (const Fatal& e) {
    return e.what();
  }
  return "";
}

// TEXT with its first FROM replaced by TO (which must be there).
std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  BOOST_REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(summary_reader)

BOOST_AUTO_TEST_CASE(what_is_written_reads_back_the_same) {
  const auto original = small_summary();
  const auto text = text_of(original);
  const auto back = reading::read_summary_bytes(text, "x.tdsum.json");
  BOOST_TEST(text_of(back) == text);  // written again, byte for byte
  BOOST_REQUIRE(back.files.size() == 1u);
  const auto& f = back.files[0];
  BOOST_TEST(f.rank == 3);
  BOOST_TEST(f.cells.size() == original.files[0].cells.size());
  std::int64_t mm_total = -1;
  for (const auto& c : f.cells)
    if (f.keys[c.key].name == "aten::mm") mm_total = c.total_ns;
  BOOST_TEST(mm_total == 200000);
}

BOOST_AUTO_TEST_CASE(summary_files_are_known_by_their_suffix) {
  BOOST_TEST(reading::is_summary_path("a/b.tdsum.json"));
  BOOST_TEST(!reading::is_summary_path("a/b.json"));
  BOOST_TEST(!reading::is_summary_path("a/b.pt.trace.json.gz"));
}

BOOST_AUTO_TEST_CASE(not_a_summary_is_fatal_and_names_the_file) {
  for (const std::string bad : {"", "{", "[]", R"({"traceEvents": []})", "not json"}) {
    const auto e = error_of(bad);
    BOOST_TEST(e.starts_with("x.tdsum.json: "), bad << " -> " << e);
  }
  const auto text = text_of(small_summary());
  BOOST_TEST(!error_of(with(text, "\"tracediff-summary\"", "\"something-else\"")).empty());
}

BOOST_AUTO_TEST_CASE(a_newer_schema_is_refused_with_its_version) {
  const auto text = text_of(small_summary());
  const auto newer = std::to_string(model::k_summary_schema_version + 1);
  const auto e = error_of(with(text, "\"schema_version\": " + std::to_string(model::k_summary_schema_version),
                               "\"schema_version\": " + newer));
  BOOST_TEST(e.find("schema version " + newer) != std::string::npos, e);
}

BOOST_AUTO_TEST_CASE(an_index_past_its_table_is_refused) {
  const auto s = small_summary();
  const auto text = text_of(s);
  // A run of cells whose key is one past the keys: [key delta, first step, length].
  const auto& c = s.files[0].cells[0];
  const auto cell = "\"cells\": {\"at\": [" + std::to_string(c.key) + ",";
  const auto bad = "\"cells\": {\"at\": [" + std::to_string(s.files[0].keys.size()) + ",";
  const auto e = error_of(with(text, cell, bad));
  BOOST_TEST(e.find("key " + std::to_string(s.files[0].keys.size()) + " out of range") != std::string::npos, e);
}

// Counts that go into sums are read bounded (2^61 in all): 2^62 allocations in each of
// three memory cells once summed to 2^64 + ..., a wrapped "1 allocation per step".
BOOST_AUTO_TEST_CASE(counts_that_would_wrap_are_refused) {
  auto s = small_summary();
  auto& f = s.files[0];
  BOOST_REQUIRE(f.keys.size() >= 3u);
  for (std::uint32_t k = 0; k < 3; ++k) {
    model::MemoryCell c;
    c.key = k;
    c.step = 0;
    c.self_count = 1;
    c.count = std::uint64_t{1} << 62;
    f.memory_cells.push_back(c);
  }
  auto e = error_of(text_of(s));
  BOOST_TEST(e.find("allocations 4611686018427387904: the summary's counts add up past 2^61") != std::string::npos, e);
  // A count under the bound reads.
  f.memory_cells.resize(1);
  f.memory_cells[0].count = 1000;
  BOOST_TEST(error_of(text_of(s)).empty());
  f.step_marker_matches = std::uint64_t{1} << 62;  // a marker's matches: the same bound
  f.step_marker = "step";
  f.step_marker_shape = model::StepMarkerShape::spans;
  e = error_of(text_of(s));
  BOOST_TEST(e.find("step_marker.matches") != std::string::npos, e);
}

// A (key, step) is one cell: a second row of it would be summed into the first
// (200,001 calls in the rows while the tree said 1), so it is refused.
BOOST_AUTO_TEST_CASE(two_rows_of_one_cell_are_refused) {
  auto s = small_summary();
  auto& f = s.files[0];
  model::MemoryCell c;
  c.key = 0;
  c.step = 0;
  c.self_count = 1;
  c.count = 1;
  f.memory_cells = {c, c};
  auto e = error_of(text_of(s));
  BOOST_TEST(e.find("two memory cells of the same key and step") != std::string::npos, e);
  f.memory_cells.clear();
  BOOST_REQUIRE(!f.cells.empty());
  f.cells.insert(f.cells.begin() + 1, f.cells.front());
  e = error_of(text_of(s));
  BOOST_TEST(e.find("two cells of the same key and step") != std::string::npos, e);
}

BOOST_AUTO_TEST_CASE(a_missing_file_is_fatal) {
  const auto dir = test::temp_dir("summary-reader");
  BOOST_CHECK_THROW(reading::read_summary_file(dir + "/none.tdsum.json"), Fatal);
  test::write_file(dir + "/s.tdsum.json", text_of(small_summary()));
  BOOST_TEST(reading::read_summary_file(dir + "/s.tdsum.json").files.size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
