// Kernel families across vendors: an NVIDIA control against an AMD test whose kernel
// names share nothing (tracegen --vendor amd: Tensile GEMMs, Composable Kernel norms,
// hip* runtime calls), the GEMMs 20 % slower. The families still compare.
#include <algorithm>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;

namespace {

struct Pair {
  std::string control, test;
};

// Generated once for the suite: one rank, 8 steps (enough for the noise test).
const Pair& vendor_pair() {
  static const Pair p = [] {
    Pair q;
    q.control = tracegen("fam-nvidia", {"--ranks", "1", "--steps", "8", "--seed", "5"});
    q.test = tracegen("fam-amd", {"--ranks", "1", "--steps", "8", "--seed", "5", "--vendor", "amd", "--slowdown",
                                  "Cijk_=1.2"});
    return q;
  }();
  return p;
}

std::map<std::string, boost::json::object> families_of(const boost::json::object& j) {
  std::map<std::string, boost::json::object> out;
  for (const auto& v : j.at("families").as_array()) {
    const auto& f = v.as_object();
    out[std::string(f.at("family").as_string())] = f;
  }
  return out;
}

double num(const boost::json::value& v) { return v.is_null() ? NAN : v.to_number<double>(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_families_e2e)

BOOST_AUTO_TEST_CASE(gemm_slower_across_vendors_other_families_same) {
  const auto& p = vendor_pair();
  const auto r = run_cli({p.control, p.test, "--json", "-", "-q"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  const auto exact = run_cli({p.control, p.test, "--json", "-", "-q", "--exact-names"});
  BOOST_REQUIRE_MESSAGE(exact.exit_code == 0, exact.err);

  // No GEMM or norm kernel name is on both sides: by name, all are added or deleted.
  std::size_t shared_gemm = 0;
  const auto by_name = parse_json(exact.out);
  for (const auto& v : by_name.at("rows").as_array()) {
    const auto& row = v.as_object();
    if (!row.contains("family")) continue;
    const std::string fam(row.at("family").as_string());
    if ((fam == "gemm" || fam == "normalization") && num(row.at("control_count")) > 0 && num(row.at("test_count")) > 0)
      ++shared_gemm;
  }
  BOOST_TEST(shared_gemm == 0u);

  const auto fams = families_of(j);
  BOOST_REQUIRE(fams.count("gemm"));
  const auto& gemm = fams.at("gemm");
  BOOST_TEST(std::string(gemm.at("verdict").as_string()) == "slower");
  BOOST_TEST(gemm.at("significant").as_bool());
  BOOST_TEST(num(gemm.at("diff_pct")) > 18.0);
  BOOST_TEST(num(gemm.at("diff_pct")) < 22.0);
  BOOST_TEST(num(gemm.at("diff_per_step_us")) ==
                 num(gemm.at("test_per_step_us")) - num(gemm.at("control_per_step_us")),
             boost::test_tools::tolerance(0.01));
  BOOST_TEST(num(gemm.at("kernels")) == 18.0);  // 9 NVIDIA names + 9 Tensile names
  // The families are ordered by |Δ per step|: GEMM first.
  BOOST_TEST(std::string(j.at("families").as_array().at(0).as_object().at("family").as_string()) == "gemm");

  // Everything else did the same work at the same speed.
  for (const char* id : {"normalization", "elementwise", "reduction", "memcpy_htod", "memset"}) {
    BOOST_REQUIRE_MESSAGE(fams.count(id), id);
    const auto& f = fams.at(id);
    BOOST_TEST(std::string(f.at("verdict").as_string()) == "same", id);
    // A few µs per step (memset) move by a rounding step; the rest by well under 3 %.
    if (num(f.at("control_per_step_us")) > 10.0) BOOST_TEST(std::abs(num(f.at("diff_pct"))) < 3.0, id);
  }
  BOOST_TEST(num(fams.at("normalization").at("kernels")) == 6.0);  // 3 at::native + 3 ck_tile
  // The forward layer norm is the only normalization kernel where it runs on each side:
  // one row, paired by family and place, the same speed.
  std::size_t paired = 0;
  for (const auto& v : j.at("rows").as_array()) {
    const auto& row = v.as_object();
    if (!row.contains("matched_by") || row.at("matched_by").as_string() != "family") continue;
    ++paired;
    BOOST_TEST(row.at("family").as_string() == "normalization");
    BOOST_TEST(std::string(row.at("test_name").as_string()).find("ck_tile::Layernorm2dFwd") != std::string::npos);
    BOOST_TEST(row.at("verdict").as_string() == "same");
  }
  BOOST_TEST(paired == 1u);
  BOOST_TEST(!fams.count("attention"));  // no time on either side: left out
}

BOOST_AUTO_TEST_CASE(csv_markdown_terminal_show_families) {
  const auto& p = vendor_pair();
  const auto dir = temp_dir("fam-out");
  const auto r = run_cli({p.control, p.test, "--csv", dir + "/d.csv", "--markdown", dir + "/d.md", "-o",
                          dir + "/r.html"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto csv = parse_csv(read_file(dir + "/d.csv"));
  BOOST_REQUIRE(!csv.empty());
  const auto col = std::find(csv[0].begin(), csv[0].end(), "family") - csv[0].begin();
  BOOST_REQUIRE(col < static_cast<std::ptrdiff_t>(csv[0].size()));
  std::size_t tensile = 0;
  for (std::size_t i = 1; i < csv.size(); ++i) {
    if (csv[i][0].rfind("Cijk_", 0) == 0) {
      BOOST_TEST(csv[i][col] == "gemm");
      ++tensile;
    }
    if (csv[i][2] != "gpu") BOOST_TEST(csv[i][col] == "", csv[i][0]);  // host rows have none
  }
  BOOST_TEST(tensile == 9u);
  const auto md = read_file(dir + "/d.md");
  BOOST_TEST(md.find("#### Kernel families") != std::string::npos);
  BOOST_TEST(md.find("| GEMM |") != std::string::npos);
  // Significant families first (GEMM), then the others up to five (DiffReport::families_shown).
  BOOST_TEST(md.find("| Normalization |") != std::string::npos);
  BOOST_TEST(md.find("| GEMM |") < md.find("| Normalization |"));
  // The terminal summary: one line per family listed.
  BOOST_TEST(r.out.find("Kernel families:") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("  GEMM +") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("slower") != std::string::npos);
  const auto html = read_file(dir + "/r.html");
  BOOST_TEST(html.find("id=\"families\"") != std::string::npos);
  BOOST_TEST(html.find("id=\"chart-families\"") != std::string::npos);
  BOOST_TEST(html.find("\"id\":\"families\"") != std::string::npos);  // the chart's data
}

BOOST_AUTO_TEST_CASE(gate_on_families) {
  const auto& p = vendor_pair();
  // GEMM +20 % fires a 10 % gate; normalization, unchanged, does not.
  auto r = run_cli({p.control, p.test, "--json", "-", "-q", "--fail-on", "family:gemm>+10%"});
  BOOST_TEST(r.exit_code == 3, r.err);
  r = run_cli({p.control, p.test, "--json", "-", "-q", "--fail-on", "family:gemm>+30%", "--fail-on",
               "family:normalization>+1us"});
  BOOST_TEST(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  const auto& gate = j.at("gate").as_array();
  BOOST_REQUIRE(gate.size() == 2u);
  BOOST_TEST(std::string(gate.at(0).as_object().at("outcome").as_string()) == "passed");
  BOOST_TEST(std::string(gate.at(1).as_object().at("outcome").as_string()) != "fired");
  // A family with no GPU work on either side: not evaluated, no error.
  r = run_cli({p.control, p.test, "--json", "-", "-q", "--fail-on", "family:attention>+1%"});
  BOOST_TEST(r.exit_code == 0, r.err);
  // An unknown family: a usage error that lists the ids, before anything is read.
  r = run_cli({"/nonexistent/c", "/nonexistent/t", "--fail-on", "family:matmul>+5%"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("unknown kernel family 'matmul'") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("gemm, convolution, attention") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(summaries_give_the_same_families) {
  const auto& p = vendor_pair();
  const auto dir = temp_dir("fam-sum");
  for (const auto& [side, in] : {std::pair{"c", p.control}, std::pair{"t", p.test}}) {
    const auto s = run_cli({"summarize", in, "-o", dir + "/" + side + ".tdsum.json", "-q"});
    BOOST_REQUIRE_MESSAGE(s.exit_code == 0, s.err);
  }
  const auto from_traces = run_cli({p.control, p.test, "--json", "-", "-q"});
  const auto from_summaries = run_cli({dir + "/c.tdsum.json", dir + "/t.tdsum.json", "--json", "-", "-q"});
  BOOST_REQUIRE(from_traces.exit_code == 0);
  BOOST_REQUIRE_MESSAGE(from_summaries.exit_code == 0, from_summaries.err);
  BOOST_TEST(boost::json::serialize(parse_json(from_traces.out).at("families")) ==
             boost::json::serialize(parse_json(from_summaries.out).at("families")));
}

BOOST_AUTO_TEST_CASE(hta_compat_has_no_families) {
  const auto& p = vendor_pair();
  const auto r = run_cli({p.control, p.test, "--hta-compat", "--json", "-", "-q"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  BOOST_TEST(!j.contains("families"));
}

// Issue 25: cuDNN runs some convolutions as generic cuBLAS SGEMMs (ampere_sgemm_*), whose
// names say GEMM. A change that only slows the convolutions (tracegen
// --generic-conv-gemm, slowed under aten::cudnn_convolution) is convolution work by the
// launching operator: the GEMM family and a gate on it do not move.
BOOST_AUTO_TEST_CASE(generic_gemm_under_convolution_is_convolution) {
  const std::vector<std::string> base{"--ranks", "1", "--steps", "8", "--seed", "3", "--generic-conv-gemm"};
  auto slowed = base;
  for (const char* a : {"--slowdown", "sgemm=1.5", "--slowdown-under", "aten::cudnn_convolution"}) slowed.push_back(a);
  const auto c = tracegen("fam-conv-c", base);
  const auto t = tracegen("fam-conv-t", slowed);

  const auto r = run_cli({c, t, "--json", "-", "-q", "--fail-on", "family:gemm>+5%"});
  BOOST_TEST(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  const auto fams = families_of(j);
  BOOST_REQUIRE(fams.count("convolution") && fams.count("gemm"));
  BOOST_TEST(std::string(fams.at("convolution").at("verdict").as_string()) == "slower");
  BOOST_TEST(fams.at("convolution").at("significant").as_bool());
  BOOST_TEST(num(fams.at("convolution").at("diff_pct")) > 40.0);
  BOOST_TEST(std::string(fams.at("gemm").at("verdict").as_string()) == "same");
  BOOST_TEST(std::abs(num(fams.at("gemm").at("diff_pct"))) < 1.0);

  // Each SGEMM row goes by its launcher: convolution under cuDNN, GEMM under mm/addmm.
  std::size_t conv_rows = 0, gemm_rows = 0;
  for (const auto& v : j.at("rows").as_array()) {
    const auto& row = v.as_object();
    if (std::string(row.at("name").as_string()).rfind("ampere_sgemm_", 0) != 0) continue;
    const std::string by(row.at("launched_by").as_string()), fam(row.at("family").as_string());
    BOOST_TEST(fam == (by == "aten::cudnn_convolution" ? "convolution" : "gemm"), row.at("name").as_string() << " " << by);
    ++(by == "aten::cudnn_convolution" ? conv_rows : gemm_rows);
  }
  BOOST_TEST(conv_rows >= 1u);
  BOOST_TEST(gemm_rows >= 1u);

  // The gate on the family that did change fails.
  const auto conv_gate = run_cli({c, t, "--json", "-", "-q", "--fail-on", "family:convolution>+5%"});
  BOOST_TEST(conv_gate.exit_code == 3, conv_gate.err);
}

// The families added for issue 25 reach every writer and the gate from the one table:
// a MoE kernel (added to each layer) three times slower.
BOOST_AUTO_TEST_CASE(new_families_reach_every_writer) {
  const std::vector<std::string> base{"--ranks", "1", "--steps", "8", "--seed", "4", "--add-kernel", "fused_moe_kernel"};
  auto slowed = base;
  slowed.insert(slowed.end(), {"--slowdown", "fused_moe_kernel=3"});
  const auto c = tracegen("fam-moe-c", base);
  const auto t = tracegen("fam-moe-t", slowed);
  const auto dir = temp_dir("fam-moe-out");
  const auto r = run_cli({c, t, "--csv", dir + "/d.csv", "--markdown", dir + "/d.md", "-o", dir + "/r.html", "--json",
                          dir + "/d.json", "--fail-on", "family:moe>+50%"});
  BOOST_TEST(r.exit_code == 3, r.err);  // the gate knows the id and fires
  const auto fams = families_of(parse_json(read_file(dir + "/d.json")).as_object());
  BOOST_REQUIRE(fams.count("moe"));
  BOOST_TEST(std::string(fams.at("moe").at("label").as_string()) == "MoE routing and experts");
  BOOST_TEST(std::string(fams.at("moe").at("verdict").as_string()) == "slower");
  BOOST_TEST(read_file(dir + "/d.csv").find(",moe,") != std::string::npos);
  BOOST_TEST(read_file(dir + "/d.md").find("| MoE routing and experts |") != std::string::npos);
  BOOST_TEST(read_file(dir + "/r.html").find("MoE routing and experts") != std::string::npos);
  BOOST_TEST(r.out.find("  MoE routing and experts +") != std::string::npos, r.out);
}

// Summaries keep the launchers: the generic SGEMMs under convolutions are convolution
// work from *.tdsum.json too.
BOOST_AUTO_TEST_CASE(summaries_keep_the_launchers_families) {
  const std::vector<std::string> base{"--ranks", "1", "--steps", "4", "--seed", "6", "--generic-conv-gemm"};
  const auto c = tracegen("fam-convsum-c", base);
  const auto dir = temp_dir("fam-convsum");
  const auto s = run_cli({"summarize", c, "-o", dir + "/c.tdsum.json", "-q"});
  BOOST_REQUIRE_MESSAGE(s.exit_code == 0, s.err);
  const auto from_trace = run_cli({c, c, "--json", "-", "-q"});
  const auto from_summary = run_cli({dir + "/c.tdsum.json", dir + "/c.tdsum.json", "--json", "-", "-q"});
  BOOST_REQUIRE(from_trace.exit_code == 0);
  BOOST_REQUIRE_MESSAGE(from_summary.exit_code == 0, from_summary.err);
  const auto fams = families_of(parse_json(from_summary.out).as_object());
  BOOST_TEST(fams.count("convolution") == 1u);
  BOOST_TEST(boost::json::serialize(parse_json(from_trace.out).at("families")) ==
             boost::json::serialize(parse_json(from_summary.out).at("families")));
}

// The launcher decides the family where names are paired across vendors too: cuDNN's
// generic SGEMM under a convolution (NVIDIA) and MIOpen's own convolution kernel there
// (AMD) are each the only convolution of that place, so they pair into one row.
BOOST_AUTO_TEST_CASE(generic_gemm_pairs_with_another_vendors_convolution) {
  const std::vector<std::string> base{"--ranks", "1", "--steps", "4", "--seed", "7", "--layers", "1",
                                      "--generic-conv-gemm"};
  auto amd = base;
  amd.insert(amd.end(), {"--vendor", "amd"});
  const auto c = tracegen("fam-conv-nv", base);
  const auto t = tracegen("fam-conv-amd", amd);
  const auto r = run_cli({c, t, "--json", "-", "-q"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out);
  std::size_t paired = 0;
  for (const auto& v : j.at("rows").as_array()) {
    const auto& row = v.as_object();
    if (!row.contains("launched_by") || row.at("launched_by").as_string() != "aten::cudnn_convolution") continue;
    BOOST_REQUIRE(row.contains("test_name"));  // one row for both vendors' kernels
    ++paired;
    BOOST_TEST(std::string(row.at("name").as_string()).rfind("ampere_sgemm_", 0) == 0u);
    BOOST_TEST(std::string(row.at("test_name").as_string()).rfind("igemm_fwd_", 0) == 0u);
    BOOST_TEST(std::string(row.at("matched_by").as_string()) == "family");
    BOOST_TEST(std::string(row.at("family").as_string()) == "convolution");
  }
  BOOST_TEST(paired == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
