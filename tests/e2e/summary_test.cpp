// `tracediff summarize` / `merge`, and summaries as comparison inputs.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <sstream>

#include "analysis/compare.hpp"
#include "output/summary_writer.hpp"
#include "output/writers.hpp"
#include "reading/summary_reader.hpp"
#include "support/test_support.hpp"
#include "util/errors.hpp"

using namespace tracediff::test;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(summaries)

// The 34 MB-per-side pair: from ../shared, skipped without it.
BOOST_AUTO_TEST_CASE(comparing_summaries_equals_comparing_traces,
                     *boost::unit_test::precondition(needs_traces({"hta-trace-diff/control", "hta-trace-diff/test"}))) {
  const auto c = trace_path("hta-trace-diff/control");
  const auto t = trace_path("hta-trace-diff/test");
  const auto dir = temp_dir("sum");
  BOOST_REQUIRE(run_cli({"summarize", c, "-o", dir + "/c.tdsum.json", "-q"}).exit_code == 0);
  BOOST_REQUIRE(run_cli({"summarize", t, "-o", dir + "/t.tdsum.json", "-q"}).exit_code == 0);
  // A small fraction of the traces' size.
  BOOST_TEST(fs::file_size(dir + "/c.tdsum.json") < 34'000'000u / 50);
  const auto direct = run_cli({c, t, "-o", dir + "/a.html", "--json", dir + "/a.json", "--csv", dir + "/a.csv", "-q"});
  const auto from_sum = run_cli({dir + "/c.tdsum.json", dir + "/t.tdsum.json", "-o", dir + "/b.html", "--json",
                                 dir + "/b.json", "--csv", dir + "/b.csv", "-q"});
  const auto mixed = run_cli({dir + "/c.tdsum.json", t, "--json", dir + "/m.json", "-q"});
  BOOST_REQUIRE(direct.exit_code == 0);
  BOOST_REQUIRE(from_sum.exit_code == 0);
  BOOST_REQUIRE(mixed.exit_code == 0);
  for (const char* ext : {"html", "json", "csv"})
    BOOST_TEST((read_file(dir + "/a." + ext) == read_file(dir + "/b." + ext)), ext);
  BOOST_TEST((read_file(dir + "/a.json") == read_file(dir + "/m.json")));
}

BOOST_AUTO_TEST_CASE(merge_of_per_rank_summaries_equals_the_whole_set) {
  const auto gen = temp_dir("merge-gen");
  BOOST_REQUIRE(std::system((std::string("'") + TRACEGEN_BINARY + "' --out '" + gen +
                             "' --ranks 3 --steps 3 >/dev/null").c_str()) == 0);
  const auto dir = temp_dir("merge");
  std::vector<std::string> parts = {"merge"};
  for (int r = 0; r < 3; ++r) {
    const auto trace = gen + "/rank" + std::to_string(r) + ".pt.trace.json";
    const auto out = dir + "/r" + std::to_string(r) + ".tdsum.json";
    BOOST_REQUIRE(run_cli({"summarize", trace, "-o", out, "-q"}).exit_code == 0);
    parts.push_back(out);
  }
  parts.insert(parts.end(), {"-o", dir + "/all.tdsum.json"});
  BOOST_REQUIRE(run_cli(parts).exit_code == 0);
  BOOST_REQUIRE(run_cli({"summarize", gen, "-o", dir + "/whole.tdsum.json", "-q"}).exit_code == 0);
  const auto a = run_cli({gen, dir + "/all.tdsum.json", "--json", "-", "-q"});
  const auto b = run_cli({gen, dir + "/whole.tdsum.json", "--json", "-", "-q"});
  BOOST_REQUIRE(a.exit_code == 0);
  const auto ja = parse_json(a.out), jb = parse_json(b.out);
  BOOST_TEST(ja.at("rows") == jb.at("rows"));
  BOOST_TEST(ja.at("steps") == jb.at("steps"));
  BOOST_TEST(ja.at("test").at("ranks").as_array().size() == 3u);
  // Overlapping ranks are refused.
  const auto dup = run_cli({"merge", dir + "/r0.tdsum.json", dir + "/all.tdsum.json", "-o", dir + "/x.tdsum.json"});
  BOOST_TEST(dup.exit_code == 1);
  BOOST_TEST(dup.err.find("rank 0") != std::string::npos, dup.err);
}

// merge holds one part at a time: a merge writes the files and the strings the whole
// set's summary writes, whatever the order of its parts, and parts whose ranks
// interleave (held all at once) too.
BOOST_AUTO_TEST_CASE(merge_writes_what_summarize_writes_in_any_order) {
  const auto gen = temp_dir("merge-order-gen");
  BOOST_REQUIRE(std::system((std::string("'") + TRACEGEN_BINARY + "' --out '" + gen +
                             "' --ranks 4 --steps 3 --jitter 5 >/dev/null").c_str()) == 0);
  const auto dir = temp_dir("merge-order");
  const auto trace = [&](int r) { return gen + "/rank" + std::to_string(r) + ".pt.trace.json"; };
  std::vector<std::string> reversed = {"merge"};
  for (int r = 3; r >= 0; --r) {
    const auto out = dir + "/r" + std::to_string(r) + ".tdsum.json";
    BOOST_REQUIRE(run_cli({"summarize", trace(r), "-o", out, "-q"}).exit_code == 0);
    reversed.push_back(out);
  }
  reversed.insert(reversed.end(), {"-o", dir + "/reversed.tdsum.json"});
  BOOST_REQUIRE(run_cli(reversed).exit_code == 0);
  BOOST_REQUIRE(run_cli({"summarize", trace(0), trace(2), "-o", dir + "/even.tdsum.json", "-q"}).exit_code == 0);
  BOOST_REQUIRE(run_cli({"summarize", trace(1), trace(3), "-o", dir + "/odd.tdsum.json", "-q"}).exit_code == 0);
  const auto merged = run_cli({"merge", dir + "/odd.tdsum.json", dir + "/even.tdsum.json", "-o", dir + "/interleaved.tdsum.json"});
  BOOST_REQUIRE_MESSAGE(merged.exit_code == 0, merged.err);
  BOOST_REQUIRE(run_cli({"summarize", trace(0), trace(1), trace(2), trace(3), "-o", dir + "/whole.tdsum.json", "-q"}).exit_code == 0);
  const auto whole = parse_json(read_file(dir + "/whole.tdsum.json"));
  for (const char* name : {"reversed", "interleaved"}) {
    const auto m = parse_json(read_file(dir + "/" + name + ".tdsum.json"));
    BOOST_TEST(m.at("files").as_array().size() == 4u, name);
    BOOST_TEST(boost::json::serialize(m.at("files")) == boost::json::serialize(whole.at("files")), name);
    BOOST_TEST(boost::json::serialize(m.at("strings")) == boost::json::serialize(whole.at("strings")), name);
  }
}

// A summary says which --launcher level attributed its launches. The CLI refuses sides
// made at other levels (summary_provenance); compared as data, they are said to differ,
// since their launcher tables compare different things.
BOOST_AUTO_TEST_CASE(summaries_record_their_launcher_level) {
  const auto gen = tracegen("launcher-level", {"--steps", "3"});
  const auto dir = temp_dir("launcher-level");
  for (const char* level : {"innermost", "outermost"})
    BOOST_REQUIRE(run_cli({"summarize", gen, "--launcher", level, "-o", dir + "/" + level + ".tdsum.json", "-q"})
                      .exit_code == 0);
  const auto inner = parse_json(read_file(dir + "/innermost.tdsum.json"));
  const auto outer = parse_json(read_file(dir + "/outermost.tdsum.json"));
  BOOST_TEST(inner.at("files").at(0).at("launcher").as_string() == "innermost");
  BOOST_TEST(outer.at("files").at(0).at("launcher").as_string() == "outermost");
  const auto differ = [](const boost::json::object& r) {
    for (const auto& d : r.at("sides_differ").as_array())
      if (d.at("what").as_string() == "Launchers (--launcher)")
        return std::string(d.at("control").as_string()) + "/" + std::string(d.at("test").as_string());
    return std::string();
  };
  const auto compared = [](const std::string& c, const std::string& t) {
    const auto report = tracediff::analysis::compare_summaries(tracediff::reading::read_summary_file(c),
                                                               tracediff::reading::read_summary_file(t), {});
    std::ostringstream out;
    tracediff::output::write_json(report, out);
    return parse_json(out.str()).as_object();
  };
  BOOST_TEST(differ(compared(dir + "/innermost.tdsum.json", dir + "/outermost.tdsum.json")) == "innermost/outermost");
  BOOST_TEST(differ(report_json(dir + "/innermost.tdsum.json", gen)).empty());  // a trace: innermost by default
}

BOOST_AUTO_TEST_CASE(summaries_are_validated) {
  const auto dir = temp_dir("badsum");
  const auto gen = temp_dir("badsum-gen");
  BOOST_REQUIRE(std::system((std::string("'") + TRACEGEN_BINARY + "' --out '" + gen + "' --ranks 1 --steps 2 >/dev/null").c_str()) == 0);
  BOOST_REQUIRE(run_cli({"summarize", gen, "-o", dir + "/ok.tdsum.json", "-q"}).exit_code == 0);
  const auto ok = read_file(dir + "/ok.tdsum.json");
  auto newer = ok;
  newer.replace(newer.find("\"schema_version\": 6"), 19, "\"schema_version\": 99");
  write_file(dir + "/newer.tdsum.json", newer);
  auto older = ok;
  older.replace(older.find("\"schema_version\": 6"), 19, "\"schema_version\": 2");
  write_file(dir + "/older.tdsum.json", older);
  auto broken = ok;
  broken.replace(broken.find("\"cells\": {\"at\": ["), 17, "\"cells\": {\"at\": [999999, 0, 1, ");
  write_file(dir + "/broken.tdsum.json", broken);
  write_file(dir + "/notsum.tdsum.json", "{\"traceEvents\": []}");
  for (const auto& [file, needle] : std::vector<std::pair<std::string, std::string>>{
           {"newer", "newer than this tracediff"},
           {"older", "older tracediff"},
           {"broken", "out of range"},
           {"notsum", "format"}}) {
    const auto r = run_cli({dir + "/" + file + ".tdsum.json", gen, "--csv", "-"});
    BOOST_TEST(r.exit_code == 1, file);
    BOOST_TEST(r.err.find(file + ".tdsum.json") != std::string::npos, r.err);
    BOOST_TEST(r.err.find(needle) != std::string::npos, r.err);
  }
  const auto hta = run_cli({dir + "/ok.tdsum.json", gen, "--hta-compat", "--csv", "-"});
  BOOST_TEST(hta.exit_code == 2);
}

namespace {

// A small valid summary: one file, two steps, two keys, one launch. Written by hand in
// the unit 1, so its figures read as they are: steps' figures field by field (dur 100,
// 100; gpu_busy 50, 50; ...); tree cells (node, step) (0, 0), (0, 1), (1, 0) with counts
// 3, 3, 2 (changes 3, 0, 2), totals 60, 60, 50 and self 30, 30, 50 (total less self
// less host children: 30, 30, 0); the key cells equal their nodes' (all columns empty).
const std::string k_small = R"({"format": "tracediff-summary", "schema_version": 6, "label": "t", "inputs": ["x"],
 "diagnostics": {"counts": {"rank_duplicate": 1}, "samples": []},
 "strings": ["cpu_op", "aten::mm", "kernel", "gemm"],
 "files": [{"path": "x", "rank": 3, "rank_source": "distributedInfo", "world_size": 4, "gpu_names": ["H100"],
  "cuda_runtime_version": 12040, "cuda_driver_version": null, "cuda_graphs": false, "compiled": true, "gpus_with_work": 1,
  "events": 10, "json_bytes": 1000, "truncated": false, "has_steps": true, "launcher": "innermost",
  "diagnostics": {"counts": {}, "samples": []}, "unit": 1,
  "keys": [0, 1, 0, 2, 3, 2], "launchers": [1],
  "steps": [7, 8], "step_figures": [100, 100, 50, 50, 50, 50, 50, 50, 0, 0, 0, 0, 0, 0, 30, 30, 0, 0, 0, 5, 40, 40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  "cells": {"at": [0, 0, 2, 1, 0, 1], "count": [], "total": [], "self": [], "wait": [], "nested": []},
  "launches": {"at": [0, 1, 0, 1], "total": [50]},
  "tree": [0, 0, 1, 1], "tree_cells": {"at": [0, 0, 2, 1, 0, 1], "count": [0, 3, 1, 2], "total": [60, 60, 50], "self": [0, 30, 0, 30]},
  "tree_folded": 0}]})";

// k_small with `from` (which must be there) replaced by `to`.
std::string small_with(const std::string& from, const std::string& to) {
  auto s = k_small;
  const auto at = s.find(from);
  BOOST_TEST_REQUIRE(at != std::string::npos, from);
  return s.replace(at, from.size(), to);
}

std::string summary_text(const tracediff::model::SetSummary& s) {
  std::ostringstream out;
  tracediff::output::write_summary(s, out);
  return out.str();
}

// The Fatal message read_summary_bytes gives, or "" when the bytes read.
std::string read_error(const std::string& bytes) {
  try {
    tracediff::reading::read_summary_bytes(bytes, "bad.tdsum.json");
  } catch (const tracediff::Fatal& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_small_summary_reads_and_compares_equal_to_itself) {
  const auto s = tracediff::reading::read_summary_bytes(k_small, "small.tdsum.json");
  BOOST_REQUIRE(s.files.size() == 1u);
  BOOST_TEST(s.files[0].cells.size() == 3u);
  BOOST_TEST(*s.files[0].cuda_runtime_version == 12040);
  BOOST_TEST(!s.files[0].cuda_driver_version);
  BOOST_TEST(s.files[0].compiled);
  BOOST_TEST(s.files[0].steps[1].detail.gpu_spill_ns == 5);
  BOOST_TEST(s.files[0].steps[1].detail.host_busy_ns == 40);
  const auto report = tracediff::analysis::compare_summaries(s, s, {});
  BOOST_REQUIRE(report.rows.size() == 2u);
  for (const auto& row : report.rows) BOOST_TEST(row.test.total_ns == row.control.total_ns);
  // Written back and read again: the same bytes from then on.
  const auto once = summary_text(s);
  BOOST_TEST(summary_text(tracediff::reading::read_summary_bytes(once, "again.tdsum.json")) == once);
}

// What the summary fuzz target (tests/fuzz/fuzz_summary.cpp) and a review of the
// reader turned up: each of these used to be read, and then overflowed int64 in the
// comparison (UBSan), truncated a rank, or gave a report from nonsense; each is now
// a Fatal error that names the file and says where.
BOOST_AUTO_TEST_CASE(inconsistent_or_impossible_summaries_are_fatal_and_say_where) {
  const std::string max = "9223372036854775807";
  const std::vector<std::pair<std::string, std::string>> cases = {
      // Durations past int64 (large ones are clamped, see below), as written or as the
      // prediction plus what is written.
      {small_with("\"total\": [], \"self\"", "\"total\": [0, 9223372036854775808], \"self\""), "cell 0: total"},
      {small_with("\"total\": [], \"self\"", "\"total\": [0, -61], \"self\""), "cell 0: total -1"},
      {small_with("\"count\": [], \"total\"", "\"count\": [0], \"total\""), "count has 1 numbers, not a multiple of 2"},
      {small_with("\"wait\": []", "\"wait\": [0, -1]"), "cell 0: wait -1"},
      {small_with("\"wait\": []", "\"wait\": [3, 1]"), "wait: row 3 out of range (3 rows)"},
      {small_with("\"total\": [60, 60, 50]", "\"total\": [60, -60, 50]"), "tree cell total is negative"},
      {small_with("\"unit\": 1", "\"unit\": 0"), "unit 0"},
      {small_with("\"unit\": 1", "\"unit\": 4611686018427387904"), "is not a duration"},
      {small_with("\"step_figures\": [100,", "\"step_figures\": [-100,"), "step figure is negative"},
      {small_with("0, 0],\n  \"cells\"", "0],\n  \"cells\""), "step_figures has 59 numbers, not 30 per step"},
      {small_with("\"rank_duplicate\": 1", "\"rank_duplicate\": 18446744073709551615"),
       "diagnostic count 18446744073709551615 is too large"},
      // Counts: a cell cannot count more events than its file has, whatever the number.
      {small_with("\"count\": [], \"total\"", "\"count\": [2, 1000000000000], \"total\""), "cell 2: cells count more events than the file's 10"},
      {small_with("\"events\": 10", "\"events\": 1e12"), "events is not an integer"},
      // Ranks and steps.
      {small_with("\"rank\": 3", "\"rank\": 4294967296"), "rank 4294967296 is not in [0, 2^30)"},
      {small_with("\"rank\": 3", "\"rank\": -1"), "rank -1 is not in [0, 2^30)"},
      {small_with("\"world_size\": 4", "\"world_size\": 2147483648"), "world_size 2147483648"},
      {small_with("\"steps\": [7, 8]", "\"steps\": [7, 7]"), "step 1: step number 7 twice"},
      {small_with("\"steps\": [7, 8]", "\"steps\": [-7, 8]"), "step number -7 is not a ProfilerStep number"},
      {small_with("\"has_steps\": true", "\"has_steps\": false"), "step number 7 in a file without steps"},
      {small_with("\"cells\": {\"at\": [0, 0, 2,", "\"cells\": {\"at\": [0, 0, 3,"), "cells: steps 0 + 3 out of range (2 steps)"},
      {small_with("\"cells\": {\"at\": [0, 0, 2,", "\"cells\": {\"at\": [0, 0, 0,"), "cells: steps 0 + 0 out of range"},
      {small_with("\"cells\": {\"at\": [0, 0, 2, 1,", "\"cells\": {\"at\": [0, 0, 2, -1,"), "cells: key -1 out of range"},
      {small_with("\"at\": [0, 1, 0, 1]", "\"at\": [0, 2, 0, 1]"), "launches: key 2 out of range (2 keys)"},
      {small_with("\"launchers\": [1]", "\"launchers\": []"), "launches: launcher 0 out of range (0 launchers)"},
      {small_with("\"launchers\": [1]", "\"launchers\": [4]"), "launcher: string 4 out of range (4 strings)"},
      {small_with("\"at\": [0, 1, 0, 1]", "\"at\": [0, 1, 0, 2]"), "launches: more rows than its columns hold"},
      // The call tree: a tree of the file's keys, over its steps and events.
      {small_with("\"tree\": [0, 0, 1, 1]", "\"tree\": [0, 0, 2, 1]"), "tree node 1: parent -1 is not an earlier node"},
      {small_with("\"tree\": [0, 0, 1, 1]", "\"tree\": [-1, 0]"), "tree node 0: parent 1 is not an earlier node"},
      {small_with("\"tree\": [0, 0, 1, 1]", "\"tree\": [0, 2, 1, 1]"), "tree node 0: key 2 out of range"},
      {small_with("\"tree\": [0, 0, 1, 1]", "\"tree\": [0, -3, 1, 1]"), "tree node 0: key -3 out of range"},
      {small_with("\"tree\": [0, 0, 1, 1]", "\"tree\": [0, 0, 1]"), "tree has 3 numbers"},
      {small_with("\"at\": [0, 0, 2, 1, 0, 1], \"count\": [0, 3", "\"at\": [0, 0, 2, 2, 0, 1], \"count\": [0, 3"), "tree cells: node 2 out of range (2 nodes)"},
      {small_with("\"at\": [0, 0, 2, 1, 0, 1], \"count\": [0, 3", "\"at\": [0, 0, 2, 1, 5, 1], \"count\": [0, 3"), "tree cells: steps 5 + 1 out of range"},
      {small_with("\"total\": [60, 60, 50]", "\"total\": [60, 60]"), "tree cells: more rows than its columns hold"},
      {small_with("\"count\": [0, 3, 1, 2]", "\"count\": [0, 3, 1, 9]"), "tree cells count more events"},
      {small_with("\"self\": [0, 30, 0, 30]", "\"self\": [0, 61, 0, 30]"), "tree cell 0: self -1"},
      {small_with("\"tree_folded\": 0", "\"tree_folded\": -1"), "tree_folded is negative"},
      {small_with("\"tree\": [0, 0, 1, 1]", "\"tree\": [0, 0" + [] {
         std::string deep;
         for (int d = 0; d < 201; ++d) deep += ", 1, 0";
         return deep;
       }() + "]"), "tree node 201: deeper than the 201 levels"},
      {small_with("\"tree_folded\": 0", "\"x\": 0"), "missing \"tree_folded\""},
      // Shape and types.
      {small_with("\"files\": [{", "\"files\": [], \"x\": [{"), "no files"},
      {small_with("\"rank\": 3", "\"rank\": \"3\""), "rank is not an integer"},
      {small_with("\"events\": 10", "\"events\": NaN"), "JSON error"},
      {small_with("\"events\": 10", "\"events\": 1e400"), "events is not an integer"},
      {small_with("\"keys\": [0, 1, 0, 2, 3, 2]", "\"keys\": [0, 1, 0, 2, 3]"), "keys has 5 numbers, not a multiple of 3"},
      {small_with("\"keys\": [0, 1, 0, 2, 3, 2]", "\"keys\": [0, 1, 1, 2, 3, 2]"), "key 0: unknown kind \"aten::mm\""},
      {small_with("\"strings\": [", "\"x\": ["), "missing \"strings\""},
      {std::string(100000, '[') + std::string(100000, ']'), "JSON error"},
      {k_small.substr(0, k_small.size() / 2), "JSON error"},
  };
  BOOST_TEST(read_error(k_small) == "");
  for (const auto& [bytes, needle] : cases) {
    const auto e = read_error(bytes);
    BOOST_TEST(e.rfind("bad.tdsum.json: ", 0) == 0u, e);
    BOOST_TEST(e.find(needle) != std::string::npos, needle << " | " << e);
  }
}

// The durations may reach the limit (2^61 in all) and still compare, without
// overflow (the sanitizer build checks that), with the side counted twice.
BOOST_AUTO_TEST_CASE(figures_up_to_the_limit_compare_without_overflow) {
  // Step 7's duration: 2^61 less k_small's other durations (645 in steps, 280 in
  // cells, 50 in launches, 280 in tree cells; counts and sizes are bounded apart).
  const std::int64_t edge = (std::int64_t{1} << 61) - 1155;
  const auto s = tracediff::reading::read_summary_bytes(small_with("\"step_figures\": [100,", "\"step_figures\": [" + std::to_string(edge) + ","),
                                                        "edge.tdsum.json");
  BOOST_TEST(s.files[0].diagnostics.count(tracediff::model::DiagId::summary_durations_clamped) == 0u);
  const auto report = tracediff::analysis::compare_summaries(s, s, {});
  BOOST_TEST(report.test.step_times.max_ns == edge);
  BOOST_TEST(report.test.step_mean.dur_ns == (edge + 100) / 2);
}

// Durations past the limit, as a hostile trace gives them (thousands of 78-hour
// events) and `tracediff summarize` writes them: clamped where the sum passes 2^61,
// counted, and the summary reads and compares (it used to be refused).
BOOST_AUTO_TEST_CASE(durations_past_the_limit_are_clamped_and_counted) {
  const std::string max = "9223372036854775807";
  // Cells 0 and 1 at the maximum (what is written is the difference from their tree
  // cells' 60 and 30), a launch, a step.
  const auto less = [&](int n) { return std::to_string(INT64_MAX - n); };
  for (const auto& bytes : {small_with("\"total\": [], \"self\": []",
                                       "\"total\": [0, " + less(60) + ", 0, " + less(60) + "], \"self\": [0, " + less(30) + "]"),
                            small_with("\"total\": [50]", "\"total\": [" + max + "]"),
                            small_with("\"step_figures\": [100,", "\"step_figures\": [" + max + ","),
                            small_with("\"step_figures\": [100,", "\"step_figures\": [2305843009213693952,")}) {
    BOOST_TEST(read_error(bytes) == "");
    auto s = tracediff::reading::read_summary_bytes(bytes, "big.tdsum.json");
    BOOST_TEST(s.files[0].diagnostics.count(tracediff::model::DiagId::summary_durations_clamped) >= 1u);
    std::uint64_t total = 0;
    for (const auto& f : s.files) {
      for (const auto& st : f.steps)
        total += static_cast<std::uint64_t>(st.detail.dur_ns + st.detail.gpu_busy_ns + st.detail.gpu_idle_ns +
                                            st.detail.kernel_ns + st.detail.comm_ns + st.detail.memcpy_ns +
                                            st.detail.memset_ns + st.detail.cpu_self_ns + st.detail.runtime_ns +
                                            st.detail.gpu_spill_ns + st.detail.host_busy_ns);
      for (const auto& c : f.cells) total += static_cast<std::uint64_t>(c.total_ns + c.self_ns);
      for (const auto& l : f.launches) total += static_cast<std::uint64_t>(l.total_ns);
      for (const auto& c : f.tree_cells) total += static_cast<std::uint64_t>(c.total_ns + c.self_ns);
    }
    BOOST_TEST(total == tracediff::model::k_max_durations);
    // It writes back as it reads, clamped: bounding again changes nothing.
    const auto text = summary_text(s);
    tracediff::model::bound_durations(s);
    BOOST_TEST(summary_text(s) == text);
    const auto report = tracediff::analysis::compare_summaries(s, s, {});
    BOOST_TEST(report.test.step_times.max_ns >= 0);
  }
}

// Summaries given together for one side (or merged) share the limit: each of these
// is within it alone, and two of them on one side are clamped together, in file
// order (deterministic), as are the traces they were made from.
BOOST_AUTO_TEST_CASE(summaries_of_one_side_share_the_limit) {
  const std::int64_t big = (std::int64_t{1} << 61) - 10'000;
  const auto dir = temp_dir("sum-limit");
  const auto step = [&] { return small_with("\"step_figures\": [100,", "\"step_figures\": [" + std::to_string(big) + ","); };
  write_file(dir + "/a.tdsum.json", step());
  write_file(dir + "/b.tdsum.json", step().replace(k_small.find("\"rank\": 3"), 9, "\"rank\": 5"));
  auto r = run_cli({dir + "/a.tdsum.json", dir + "/b.tdsum.json", "--csv", "-", "-q"});
  BOOST_TEST(r.exit_code == 0, r.err);
  r = run_cli({dir + "/a.tdsum.json", dir + "/a.tdsum.json", "--add-control", dir + "/b.tdsum.json", "--json", "-"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.find("\"summary_durations_clamped\"") != std::string::npos);
  BOOST_TEST(r.err.find("durations clamped") != std::string::npos, r.err);  // a warning says so
  r = run_cli({"merge", dir + "/a.tdsum.json", dir + "/b.tdsum.json", "-o", dir + "/m.tdsum.json"});
  BOOST_TEST(r.exit_code == 0, r.err);
  r = run_cli({dir + "/m.tdsum.json", dir + "/a.tdsum.json", "--csv", "-", "-q"});
  BOOST_TEST(r.exit_code == 0, r.err);
}

// A comparison reads its summaries part by part (read_summary_file's `parts`): each
// file's header, its rows left in the file and read again, a file at a time, when the
// comparison reaches them. It must read as the whole document does.
BOOST_AUTO_TEST_CASE(a_summary_read_in_parts_reads_as_the_whole_document) {
  namespace model = tracediff::model;
  using tracediff::reading::read_summary_file;
  const auto gen = tracegen("parts-gen", {"--ranks", "3", "--steps", "4", "--memory", "--jitter", "2"});
  const auto dir = temp_dir("parts");
  BOOST_REQUIRE(run_cli({"summarize", gen, "-o", dir + "/c.tdsum.json", "-q"}).exit_code == 0);
  const auto gen_t = tracegen("parts-gen-t", {"--ranks", "3", "--steps", "4", "--memory", "--seed", "2", "--slowdown", "aten::mm=1.3"});
  BOOST_REQUIRE(run_cli({"summarize", gen_t, "-o", dir + "/t.tdsum.json", "-q"}).exit_code == 0);
  const auto whole_c = read_summary_file(dir + "/c.tdsum.json"), whole_t = read_summary_file(dir + "/t.tdsum.json");
  auto parts_c = read_summary_file(dir + "/c.tdsum.json", nullptr, nullptr, true);
  const auto parts_t = read_summary_file(dir + "/t.tdsum.json", nullptr, nullptr, true);
  // The rows were left in the file (else this test would compare the whole read with itself).
  BOOST_REQUIRE(parts_c.files.size() == 3u);
  for (const auto& f : parts_c.files) {
    BOOST_TEST(f.deferred != nullptr);
    BOOST_TEST(f.cells.empty());
    BOOST_TEST(f.tree_cells.empty());
    const model::WithRows rows(f);
    BOOST_TEST(!rows->cells.empty());
    BOOST_TEST(!rows->memory_cells.empty());
  }
  // The same comparison, to the byte.
  const auto json_of = [](const model::DiffReport& r) {
    std::ostringstream out;
    tracediff::output::write_json(r, out);
    return out.str();
  };
  BOOST_TEST(json_of(tracediff::analysis::compare_summaries(parts_c, parts_t, {})) ==
             json_of(tracediff::analysis::compare_summaries(whole_c, whole_t, {})));
  // And, its rows read back, the same summary.
  model::undefer_rows(parts_c);
  BOOST_TEST(parts_c.files[0].deferred == nullptr);
  BOOST_TEST(summary_text(parts_c) == summary_text(whole_c));

  // What the part-by-part read does not expect (here the files before the strings) is
  // read whole, and reads the same.
  auto bytes = read_file(dir + "/c.tdsum.json");
  const auto strings_at = bytes.find("\"strings\":"), files_at = bytes.find("\"files\":");
  BOOST_REQUIRE(strings_at < files_at);
  const auto strings = bytes.substr(strings_at, files_at - strings_at);  // "strings": [...],
  auto reordered = bytes;
  reordered.erase(strings_at, strings.size());
  const auto last = reordered.rfind('}');
  reordered.insert(last, ", " + strings.substr(0, strings.find_last_of(',')));
  write_file(dir + "/r.tdsum.json", reordered);
  const auto fallback = read_summary_file(dir + "/r.tdsum.json", nullptr, nullptr, true);
  BOOST_TEST(fallback.files[0].deferred == nullptr);
  BOOST_TEST(summary_text(fallback) == summary_text(whole_c));

  // A summary changed between its two reads is an error naming it, never other figures.
  write_file(dir + "/x.tdsum.json", bytes);
  const auto early = read_summary_file(dir + "/x.tdsum.json", nullptr, nullptr, true);
  const auto rank_at = bytes.find("\"rank\":", files_at);  // file 0's
  const auto digit = bytes.find_first_of("0123456789", rank_at);
  BOOST_REQUIRE(digit < bytes.find("\"keys\"", rank_at));
  bytes[digit] = bytes[digit] == '7' ? '8' : '7';  // one byte of file 0, the size unchanged
  write_file(dir + "/x.tdsum.json", bytes);
  try {
    const model::WithRows rows(early.files[0]);
    BOOST_TEST(false, "read a changed file");
  } catch (const tracediff::Fatal& e) {
    BOOST_TEST(std::string(e.what()) ==
               dir + "/x.tdsum.json: changed while tracediff was reading it; run the comparison again");
  }
}

BOOST_AUTO_TEST_CASE(a_summary_file_reads_as_its_bytes_do_and_writes_back_unchanged) {
  const auto gen = temp_dir("sumrt-gen");
  BOOST_REQUIRE(std::system((std::string("'") + TRACEGEN_BINARY + "' --out '" + gen +
                             "' --ranks 2 --steps 2 >/dev/null").c_str()) == 0);
  const auto dir = temp_dir("sumrt");
  BOOST_REQUIRE(run_cli({"summarize", gen, "-o", dir + "/s.tdsum.json", "-q"}).exit_code == 0);
  const auto bytes = read_file(dir + "/s.tdsum.json");
  const auto from_file = tracediff::reading::read_summary_file(dir + "/s.tdsum.json");
  BOOST_TEST(summary_text(from_file) == bytes);
  BOOST_TEST(summary_text(tracediff::reading::read_summary_bytes(bytes, "s")) == bytes);
  try {
    tracediff::reading::read_summary_file(dir + "/missing.tdsum.json");
    BOOST_TEST(false);
  } catch (const tracediff::Fatal& e) {
    BOOST_TEST(std::string(e.what()) == dir + "/missing.tdsum.json: cannot read: No such file or directory");
  }
}

BOOST_AUTO_TEST_SUITE_END()
