// Which rank everyone waited on (docs/reading-the-report.md, "Which rank everyone waited on"): collectives
// matched across ranks by NCCL sequence number or by kind, stream and order; each
// rank's wait (its kernel less the shortest of its collective) and last arrivals; the
// straggler named in every view. Generated jobs with a delayed rank have exact waits.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

// 4 ranks, 8 layers: two DDP all-reduces per step, 4 steps.
const std::vector<std::string> k_job = {"--ranks", "4", "--layers", "8", "--steps", "4"};

std::vector<std::string> job(std::vector<std::string> extra) {
  auto args = k_job;
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

const json::object& row_of(const json::object& report, std::int64_t rank) {
  for (const auto& r : report.at("ranks").at("rows").as_array())
    if (r.at("test_rank").is_int64() && r.at("test_rank").as_int64() == rank) return r.as_object();
  throw std::runtime_error("no rank row " + std::to_string(rank));
}

double num(const json::value& v) { return v.is_int64() ? static_cast<double>(v.as_int64()) : v.as_double(); }

// Rank 2 late by 3 ms before each of 8 all-reduces: the other three wait exactly 3 ms
// in each, 6 ms per step; rank 2 waits for nobody and arrives last at all 8.
void check_straggler(const json::object& r, bool by_seq) {
  const auto& ranks = r.at("ranks").as_object();
  BOOST_TEST(ranks.at("collectives").at("test").at("matched").as_int64() == 8);
  BOOST_TEST(ranks.at("collectives").at("test").at("by_seq").as_int64() == (by_seq ? 8 : 0));
  BOOST_TEST(ranks.at("straggler").at("control").is_null());
  const auto& s = ranks.at("straggler").at("test").as_object();
  BOOST_TEST(s.at("rank").as_int64() == 2);
  BOOST_TEST(s.at("last_arrivals").at("count").as_int64() == 8);
  BOOST_TEST(s.at("last_arrivals").at("of").as_int64() == 8);
  BOOST_TEST(num(s.at("others_wait_us")) == 6000.0);
  for (std::int64_t rank : {0, 1, 3}) {
    BOOST_TEST(num(row_of(r, rank).at("wait").at("test")) == 6000.0, "rank " << rank);
    BOOST_TEST(row_of(r, rank).at("last_arrivals").at("test").at("count").as_int64() == 0);
  }
  BOOST_TEST(num(row_of(r, 2).at("wait").at("test")) == 0.0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(straggler)

BOOST_AUTO_TEST_CASE(named_by_order_and_by_sequence_number) {
  const auto c = tracegen("strag-c", job({}));
  const auto t = tracegen("strag-t", job({"--straggler", "2=3000"}));
  const auto ts = tracegen("strag-ts", job({"--straggler", "2=3000", "--comm-seq"}));
  check_straggler(report_json(c, t), false);
  check_straggler(report_json(c, ts), true);
  // The tolerant reader (a NaN sends each file to it) keeps the sequence numbers too.
  const auto tol = temp_dir("strag-tol");
  for (int rank = 0; rank < 4; ++rank) {
    const auto name = "/rank" + std::to_string(rank) + ".pt.trace.json";
    auto text = read_file(ts + name);
    const auto at = text.find("\"ph\": \"X\"");
    BOOST_REQUIRE(at != std::string::npos);
    text.insert(at, "\"odd\": NaN, ");
    write_file(tol + name, text);
  }
  const auto repaired = report_json(c, tol);
  BOOST_TEST(repaired.at("diagnostics").at("counts").at("event_repaired").as_int64() == 4);
  check_straggler(repaired, true);
  // One sentence, in the terminal and the Markdown.
  const auto term = run_cli({c, t});
  BOOST_TEST(term.out.find("Test: rank 2 arrived last at 100 % of collectives; the others waited 6.00 ms per") !=
                 std::string::npos,
             term.out);  // wrapped to the terminal's width after it
  const auto md = run_cli({c, t, "--markdown", "-", "-q"});
  BOOST_TEST(md.out.find("**Waited on:** Test: rank 2 arrived last at 100 % of collectives") != std::string::npos);
  // The change says what it is against: the other side's wait for its rank of that number.
  BOOST_TEST(md.out.find("against Control's wait for its rank 2)") != std::string::npos, md.out);
  const auto dir = temp_dir("strag-html");
  BOOST_REQUIRE(run_cli({c, t, "-o", dir + "/r.html", "-q"}).exit_code == 0);
  const auto html = read_file(dir + "/r.html");
  BOOST_TEST(html.find("Waited on:</strong> Test: rank 2 arrived last") != std::string::npos);
}

// The straggler's trace lacks its first all-reduce kernel (made a cuda_event). 6 layers
// make two all-reduces of different sizes a step. By sequence number the others still
// pair up: in step 1 the others wait 0 in the first (rank 2 absent) and 3 ms in the
// second, 6 ms in later steps: 5.25 ms per step. By order, rank 2's second all-reduce
// pairs with the others' first, of another size: their wait is off by the difference.
BOOST_AUTO_TEST_CASE(sequence_numbers_survive_a_missing_kernel) {
  const auto c = tracegen("strag-miss-c", {"--ranks", "4", "--layers", "6", "--steps", "4"});
  const auto drop = [](const std::string& dir) {
    const auto file = dir + "/rank2.pt.trace.json";
    auto text = read_file(file);
    const std::string kernel = "\"cat\": \"kernel\", \"name\": \"ncclKernel_";
    const auto at = text.find(kernel);
    BOOST_REQUIRE(at != std::string::npos);
    text.replace(at + 8, 6, "cuda_event");
    write_file(file, text);
  };
  for (const bool seq : {true, false}) {
    std::vector<std::string> args = {"--ranks", "4", "--layers", "6", "--steps", "4", "--straggler", "2=3000"};
    if (seq) args.push_back("--comm-seq");
    const auto t = tracegen(seq ? "strag-miss-ts" : "strag-miss-t", args);
    drop(t);
    const auto r = report_json(c, t);
    BOOST_TEST(r.at("ranks").at("straggler").at("test").at("rank").as_int64() == 2);
    for (std::int64_t rank : {0, 1, 3})
      BOOST_TEST((num(row_of(r, rank).at("wait").at("test")) == 5250.0) == seq, "rank " << rank << " seq " << seq);
    if (seq) BOOST_TEST(row_of(r, 2).at("last_arrivals").at("test").at("of").as_int64() == 7);
  }
}

// Kernels of one collective differ by a few % across ranks when nobody is late:
// nobody is named, though every collective is matched.
BOOST_AUTO_TEST_CASE(none_on_a_balanced_job) {
  const auto c = tracegen("bal-c", job({}));
  const auto t = tracegen("bal-t", job({"--seed", "7", "--comm-seq"}));
  const auto r = report_json(c, t);
  const auto& ranks = r.at("ranks").as_object();
  BOOST_TEST(ranks.at("collectives").at("control").at("matched").as_int64() == 8);
  BOOST_TEST(ranks.at("collectives").at("test").at("matched").as_int64() == 8);
  BOOST_TEST(ranks.at("straggler").at("control").is_null());
  BOOST_TEST(ranks.at("straggler").at("test").is_null());
  for (const auto& row : ranks.at("rows").as_array()) {
    BOOST_TEST(row.at("last_arrivals").at("test").at("count").as_int64() == 0);
    BOOST_TEST(num(row.at("wait").at("test")) < 100.0);  // a few % of two ~0.3 ms kernels
  }
  BOOST_TEST(run_cli({c, t}).out.find("arrived last") == std::string::npos);
}

// Two ranks sampled from a 128-rank job: 5 NCCL SendRecv kernels per step on each
// (4 on stream 84, 1 on 203), no sequence numbers: matched by stream and order. Rank 0
// waits 61.65 ms per step, rank 1 53.08 ms (each kernel less the shorter of the pair,
// as a script over the raw JSON gives); rank 1 was the shorter by more than a tenth in
// 6 of 10, rank 0 in 2: rank 1 is named. Only these two ranks are in the set, so
// "last" is among them.
BOOST_AUTO_TEST_CASE(two_real_ranks, *boost::unit_test::precondition(needs_traces({"two-ranks"}))) {
  const auto d = trace_path("two-ranks");
  const auto r = report_json(d, d);
  const auto& ranks = r.at("ranks").as_object();
  BOOST_TEST(ranks.at("collectives").at("test").at("matched").as_int64() == 10);
  BOOST_TEST(ranks.at("collectives").at("test").at("by_seq").as_int64() == 0);
  BOOST_TEST(num(row_of(r, 0).at("wait").at("test")) == 61650.5);
  BOOST_TEST(num(row_of(r, 1).at("wait").at("test")) == 53077.5);
  BOOST_TEST(row_of(r, 1).at("last_arrivals").at("test").at("count").as_int64() == 6);
  BOOST_TEST(row_of(r, 0).at("last_arrivals").at("test").at("count").as_int64() == 2);
  BOOST_TEST(ranks.at("straggler").at("test").at("rank").as_int64() == 1);
  BOOST_TEST(num(ranks.at("straggler").at("test").at("others_wait_diff_us")) == 0.0);
}

// Summaries carry each step's collectives: comparing them gives the traces' figures.
// A summary whose collective names a key it lacks is refused.
BOOST_AUTO_TEST_CASE(summaries_equal_traces) {
  const auto c = tracegen("strag-sum-c", job({}));
  const auto t = tracegen("strag-sum-t", job({"--straggler", "1=2000", "--comm-seq"}));
  const auto dir = temp_dir("strag-sum");
  for (const auto& [in, out] : {std::pair{c, dir + "/c.tdsum.json"}, std::pair{t, dir + "/t.tdsum.json"}}) {
    const auto made = run_cli({"summarize", in, "-o", out, "-q"});
    BOOST_REQUIRE_MESSAGE(made.exit_code == 0, made.err);
  }
  const auto from_traces = report_json(c, t);
  const auto from_summaries = report_json(dir + "/c.tdsum.json", dir + "/t.tdsum.json");
  BOOST_TEST(json::serialize(from_traces.at("ranks")) == json::serialize(from_summaries.at("ranks")));
  BOOST_TEST(from_summaries.at("ranks").at("straggler").at("test").at("rank").as_int64() == 1);
  // Ranks summarised one by one and merged: the same.
  std::vector<std::string> merge = {"merge"};
  for (int rank = 0; rank < 4; ++rank) {
    const auto one = dir + "/t" + std::to_string(rank) + ".tdsum.json";
    const auto trace = t + "/rank" + std::to_string(rank) + ".pt.trace.json";
    BOOST_REQUIRE(run_cli({"summarize", trace, "-o", one, "-q"}).exit_code == 0);
    merge.push_back(one);
  }
  merge.insert(merge.end(), {"-o", dir + "/merged.tdsum.json"});
  const auto merged = run_cli(merge);
  BOOST_REQUIRE_MESSAGE(merged.exit_code == 0, merged.err);
  BOOST_TEST(json::serialize(from_traces.at("ranks")) ==
             json::serialize(report_json(dir + "/c.tdsum.json", dir + "/merged.tdsum.json").at("ranks")));

  auto bad = read_file(dir + "/t.tdsum.json");
  const auto at = bad.find("\"collectives\": [");
  BOOST_REQUIRE(at != std::string::npos);
  const auto key = bad.find(',', at + 16) + 1;  // the first collective's key index (step, key, seq, duration)
  bad.replace(key, 1, "99");
  write_file(dir + "/bad.tdsum.json", bad);
  const auto refused = run_cli({c, dir + "/bad.tdsum.json", "--csv", "-"});
  BOOST_TEST(refused.exit_code == 1);
}

// A step of 4,100 collectives: 4,096 are kept (a note on each file says so) and
// matched; rank 1's kernels are 2 µs longer, so it waited 2 µs in each.
BOOST_AUTO_TEST_CASE(capped_per_step) {
  const auto dir = temp_dir("strag-cap");
  for (int rank : {0, 1}) {
    std::vector<std::string> e = {x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 100000)};
    for (long i = 0; i < 4100; ++i)
      e.push_back(x_event("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0, 7, 10 + 20 * i, 5 + 2 * rank));
    write_file(dir + "/rank" + std::to_string(rank) + ".json", trace_json(e));
  }
  const auto r = report_json(dir, dir);
  BOOST_TEST(r.at("diagnostics").at("counts").at("collectives_capped").as_int64() == 4);  // 2 files a side
  BOOST_TEST(r.at("ranks").at("collectives").at("test").at("matched").as_int64() == 4096);
  BOOST_TEST(num(row_of(r, 1).at("wait").at("test")) == 4096 * 2.0);
  BOOST_TEST(row_of(r, 0).at("last_arrivals").at("test").at("count").as_int64() == 4096);
}

BOOST_AUTO_TEST_SUITE_END()
