// --by-shape end to end (issue #18 item 5): a GEMM that changed shape shows as a
// deleted and an added shape row (one row without the option); FLOPs and TFLOP/s in
// the JSON are the hand-computed ones; summaries keep shapes; without the option
// nothing changes.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

json::object compare(const std::vector<std::string>& args) {
  std::vector<std::string> all = args;
  all.insert(all.end(), {"--json", "-", "-q"});
  const auto r = run_cli(all);
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return parse_json(r.out).as_object();
}

const json::object* row(const json::object& j, const std::string& name, const std::string& category = "cpu_op") {
  for (const auto& r : j.at("rows").as_array())
    if (r.at("name").as_string() == name && r.at("category").as_string() == category) return &r.as_object();
  return nullptr;
}

double number(const json::value& v) { return v.to_number<double>(); }

// The control side (eager, default shapes) and a test side whose backward aten::mm
// multiplies by a [K, 2N] matrix (its GEMMs run twice as long).
struct Pair {
  std::string c, t;
};
const Pair& pair() {
  static const Pair p{tracegen("shapes-c", {"--steps", "6", "--ranks", "1", "--layers", "2"}),
                      tracegen("shapes-t", {"--steps", "6", "--ranks", "1", "--layers", "2", "--shape-scale", "aten::mm=2"})};
  return p;
}

// tracegen's layer 0 has hidden size 2048, layer 1 4096; the batch is 64.
const std::string k_mm_c = "aten::mm [[64,2048],[2048,2048]] (float,float)";
const std::string k_mm_t = "aten::mm [[64,2048],[2048,4096]] (float,float)";

}  // namespace

BOOST_AUTO_TEST_SUITE(by_shape)

BOOST_AUTO_TEST_CASE(a_gemm_that_changed_shape_is_a_deleted_and_an_added_row) {
  const auto j = compare({pair().c, pair().t, "--by-shape"});
  BOOST_TEST(j.at("by_shape").as_bool());
  const auto* gone = row(j, k_mm_c);
  const auto* made = row(j, k_mm_t);
  BOOST_REQUIRE(gone);
  BOOST_REQUIRE(made);
  BOOST_TEST(gone->at("change").as_string() == "deleted");
  BOOST_TEST(made->at("change").as_string() == "added");
  BOOST_TEST(made->at("shape").as_string() == "[[64,2048],[2048,4096]] (float,float)");
  BOOST_TEST(!row(j, "aten::mm"));
  // Unchanged shapes match across the sides.
  const auto* addmm = row(j, "aten::addmm [[2048],[64,2048],[2048,2048],[],[]] (float,float,float,Scalar,Scalar)");
  BOOST_REQUIRE(addmm);
  BOOST_TEST(addmm->at("change").as_string() == "unchanged");
  // Rows of other categories (kernels) carry no shape fields.
  for (const auto& r : j.at("rows").as_array())
    if (r.at("category").as_string() != "cpu_op") BOOST_TEST(!r.as_object().contains("shape"));

  // Without --by-shape: one aten::mm row, the same calls on both sides, no shape fields.
  const auto plain = compare({pair().c, pair().t});
  const auto* mm = row(plain, "aten::mm");
  BOOST_REQUIRE(mm);
  BOOST_TEST(mm->at("change").as_string() == "unchanged");
  BOOST_TEST(!mm->contains("shape"));
  BOOST_TEST(!plain.contains("by_shape"));
}

BOOST_AUTO_TEST_CASE(flops_and_tflops_are_the_hand_computed_ones) {
  const auto j = compare({pair().c, pair().t, "--by-shape"});
  const auto* made = row(j, k_mm_t);
  const auto* gone = row(j, k_mm_c);
  BOOST_REQUIRE(made);
  BOOST_REQUIRE(gone);
  // 2 M K N per call.
  BOOST_TEST(number(made->at("flops_per_call")) == 2.0 * 64 * 2048 * 4096);
  BOOST_TEST(number(gone->at("flops_per_call")) == 2.0 * 64 * 2048 * 2048);
  // TFLOP/s: FLOPs of the calls over the GPU time the operator launched (its
  // by_launcher entry), on the side that has it; the other side has none.
  const auto launched_us = [&](const std::string& who, const char* side) {
    for (const auto& l : j.at("by_launcher").as_array())
      if (l.at("launcher").as_string() == who) return number(l.at(side));
    return -1.0;
  };
  const double t_us = launched_us(k_mm_t, "test_us");
  BOOST_REQUIRE(t_us > 0);
  const double expect_t = 2.0 * 64 * 2048 * 4096 * number(made->at("test_count")) / (t_us * 1e-6) / 1e12;
  BOOST_TEST(std::fabs(number(made->at("test_tflops")) - expect_t) <= 0.0005 + 1e-6 * expect_t);
  BOOST_TEST(made->at("control_tflops").is_null());
  const double c_us = launched_us(k_mm_c, "control_us");
  BOOST_REQUIRE(c_us > 0);
  const double expect_c = 2.0 * 64 * 2048 * 2048 * number(gone->at("control_count")) / (c_us * 1e-6) / 1e12;
  BOOST_TEST(std::fabs(number(gone->at("control_tflops")) - expect_c) <= 0.0005 + 1e-6 * expect_c);
  BOOST_TEST(gone->at("test_tflops").is_null());
  // The GEMM's kernels ran twice as long for twice the FLOPs: the rate stays.
  BOOST_TEST(std::fabs(expect_t / expect_c - 1) < 0.05);
  // aten::linear has FLOPs, but launches nothing itself (aten::addmm inside does): no TFLOP/s.
  const auto* linear = row(j, "aten::linear [[64,2048],[2048,2048],[2048]] (float,float,float)");
  BOOST_REQUIRE(linear);
  BOOST_TEST(number(linear->at("flops_per_call")) == 2.0 * 64 * 2048 * 2048);
  BOOST_TEST(linear->at("control_tflops").is_null());
  // An operator that is no matrix multiplication has its shape and no FLOPs.
  const auto* relu = row(j, "aten::relu [[64,2048]] (float)");
  BOOST_REQUIRE(relu);
  BOOST_TEST(relu->at("flops_per_call").is_null());
}

// One fixed set of CSV columns: the shape columns are there without --by-shape too, empty.
BOOST_AUTO_TEST_CASE(csv_shape_columns_filled_only_with_by_shape) {
  const auto dir = temp_dir("shapes-csv");
  BOOST_REQUIRE(run_cli({pair().c, pair().t, "--csv", dir + "/plain.csv", "-q"}).exit_code == 0);
  BOOST_REQUIRE(run_cli({pair().c, pair().t, "--by-shape", "--csv", dir + "/shaped.csv", "-q"}).exit_code == 0);
  const auto plain = parse_csv(read_file(dir + "/plain.csv"));
  const auto shaped = parse_csv(read_file(dir + "/shaped.csv"));
  BOOST_REQUIRE(!plain.empty());
  BOOST_REQUIRE(!shaped.empty());
  const std::vector<std::string> extra{"shape", "flops_per_call", "control_tflops", "test_tflops"};
  // The shape columns come before the memory columns (docs/output.md), then Inductor's
  // figures close the row.
  const auto at = static_cast<std::size_t>(std::find(shaped[0].begin(), shaped[0].end(), "shape") - shaped[0].begin());
  BOOST_REQUIRE(at + 4 <= shaped[0].size());
  BOOST_TEST(std::vector<std::string>(shaped[0].begin() + static_cast<std::ptrdiff_t>(at),
                                      shaped[0].begin() + static_cast<std::ptrdiff_t>(at + 4)) == extra);
  BOOST_TEST(shaped[0].back() == "inductor_gbps_pct");
  BOOST_TEST(shaped[0] == plain[0]);
  for (std::size_t i = 1; i < plain.size(); ++i) {
    BOOST_REQUIRE(plain[i].size() == plain[0].size());
    for (std::size_t k = at; k < at + 4; ++k) BOOST_TEST(plain[i][k].empty());
  }
  bool found = false;
  for (const auto& r : shaped) {
    if (r[0] != k_mm_t) continue;
    found = true;
    BOOST_TEST(r[at] == "[[64,2048],[2048,4096]] (float,float)");
    BOOST_TEST(r[at + 1] == "1073741824");
    BOOST_TEST(r[at + 2] == "");  // no control TFLOP/s: the shape is new
    BOOST_TEST(!r[at + 3].empty());
  }
  BOOST_TEST(found);
}

BOOST_AUTO_TEST_CASE(summaries_keep_shapes) {
  const auto dir = temp_dir("shapes-sum");
  BOOST_REQUIRE(run_cli({"summarize", pair().c, "--by-shape", "-o", dir + "/c.tdsum.json", "-q"}).exit_code == 0);
  BOOST_REQUIRE(run_cli({"summarize", pair().t, "--by-shape", "-o", dir + "/t.tdsum.json", "-q"}).exit_code == 0);
  const auto from_traces = run_cli({pair().c, pair().t, "--by-shape", "--json", "-", "-q"});
  const auto from_summaries = run_cli({dir + "/c.tdsum.json", dir + "/t.tdsum.json", "--by-shape", "--json", "-", "-q"});
  BOOST_REQUIRE(from_traces.exit_code == 0);
  BOOST_REQUIRE_MESSAGE(from_summaries.exit_code == 0, from_summaries.err);
  // The same rows, figures and shapes (the inputs' names differ).
  const auto a = parse_json(from_traces.out).as_object();
  const auto b = parse_json(from_summaries.out).as_object();
  BOOST_TEST(json::serialize(a.at("rows")) == json::serialize(b.at("rows")));
  BOOST_TEST(json::serialize(a.at("by_launcher")) == json::serialize(b.at("by_launcher")));
  // A summary written without --by-shape has no shapes; one with them, compared
  // without --by-shape, reads as without.
  BOOST_REQUIRE(run_cli({"summarize", pair().c, "-o", dir + "/plain.tdsum.json", "-q"}).exit_code == 0);
  BOOST_TEST(read_file(dir + "/plain.tdsum.json").find("[[64,") == std::string::npos);
  BOOST_TEST(read_file(dir + "/c.tdsum.json").find("\"launcher_shapes\"") != std::string::npos);
  const auto plain = run_cli({pair().c, pair().t, "--json", "-", "-q"});
  const auto shaped_read_plain = run_cli({dir + "/c.tdsum.json", dir + "/t.tdsum.json", "--json", "-", "-q"});
  BOOST_REQUIRE(shaped_read_plain.exit_code == 0);
  const auto p = parse_json(plain.out).as_object();
  const auto q = parse_json(shaped_read_plain.out).as_object();
  BOOST_TEST(json::serialize(p.at("rows")) == json::serialize(q.at("rows")));
}

BOOST_AUTO_TEST_CASE(views_show_flops_and_the_option_is_checked) {
  const auto dir = temp_dir("shapes-views");
  const auto r = run_cli({pair().c, pair().t, "--by-shape", "-o", dir + "/r.html", "--markdown", dir + "/r.md"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto html = read_file(dir + "/r.html");
  BOOST_TEST(html.find("FLOP / call") != std::string::npos);
  BOOST_TEST(html.find("1.07 GFLOP") != std::string::npos);
  BOOST_TEST(read_file(dir + "/r.md").find("GFLOP/call") != std::string::npos);
  BOOST_TEST(r.out.find("GFLOP/call") != std::string::npos);
  // Without the option, no column.
  BOOST_REQUIRE(run_cli({pair().c, pair().t, "-o", dir + "/plain.html", "-q"}).exit_code == 0);
  BOOST_TEST(read_file(dir + "/plain.html").find("FLOP / call") == std::string::npos);
  // HTA's TraceDiff has no shapes: a usage error, before reading.
  BOOST_TEST(run_cli({pair().c, pair().t, "--by-shape", "--hta-compat", "-q"}).exit_code == 2);
}

// The large pair: from ../shared, skipped without it.
BOOST_AUTO_TEST_CASE(real_traces_compare_by_shape,
                     *boost::unit_test::precondition(needs_traces({"hta-trace-diff/control", "hta-trace-diff/test"}))) {
  const auto j = compare({trace_path("hta-trace-diff/control"), trace_path("hta-trace-diff/test"), "--by-shape"});
  std::size_t shaped = 0, with_flops = 0;
  for (const auto& r : j.at("rows").as_array()) {
    if (!r.as_object().contains("shape")) continue;
    ++shaped;
    if (!r.at("flops_per_call").is_null()) ++with_flops;
  }
  BOOST_TEST(shaped > 100u);
  BOOST_TEST(with_flops > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
