// Inductor's own figures (issue #32): kernels with args kernel_flop and kernel_num_gb get
// achieved TFLOP/s and GB/s per side, with the change, in the JSON and the CSV, from
// traces and from summaries alike.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

// The kernel's row (the cpu_op that launches a Triton kernel has its name too).
const json::object* row_named(const json::object& report, std::string_view name) {
  for (const auto& v : report.at("rows").as_array())
    if (v.at("name").as_string() == name && v.at("device").as_string() == "gpu") return &v.as_object();
  return nullptr;
}

double num(const json::value& v) { return v.to_number<double>(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(inductor)

BOOST_AUTO_TEST_CASE(kernels_with_inductors_figures_get_their_rates_per_side) {
  const std::vector<std::string> common = {"--compile", "--inductor-args", "--steps", "4"};
  auto slow = common;
  slow.insert(slow.end(), {"--slowdown", "triton_poi_fused_add_relu_0=2"});
  const auto c = tracegen("inductor-c", common);
  const auto t = tracegen("inductor-t", slow);
  const auto j = report_json(c, t);

  // A pointwise kernel: GB alone (Inductor gives no FLOPs for it); twice as slow, half the GB/s.
  const auto* poi = row_named(j, "triton_poi_fused_add_relu_0");
  BOOST_REQUIRE(poi);
  BOOST_REQUIRE(poi->contains("inductor"));
  const auto& w = poi->at("inductor").as_object();
  BOOST_TEST(w.at("control_tflops").is_null());
  BOOST_TEST(w.at("tflops_pct").is_null());
  // Against the row's own figures: 0.0125 GB a call over the calls' time.
  const double c_calls = num(poi->at("control_count")), c_us = num(poi->at("control_total_us"));
  BOOST_TEST(num(w.at("control_gbps")) == 0.0125e9 * c_calls / (c_us * 1000), boost::test_tools::tolerance(1e-3));
  BOOST_TEST(num(w.at("test_gbps")) == num(w.at("control_gbps")) / 2, boost::test_tools::tolerance(0.02));
  BOOST_TEST(num(w.at("gbps_pct")) == -50.0, boost::test_tools::tolerance(0.04));

  // A layer-norm kernel: both figures; not slowed, so next to no change.
  const auto* per = row_named(j, "triton_per_fused_native_layer_norm_1");
  BOOST_REQUIRE(per);
  const auto& pw = per->at("inductor").as_object();
  const double p_calls = num(per->at("control_count")), p_us = num(per->at("control_total_us"));
  BOOST_TEST(num(pw.at("control_tflops")) == 2097152.0 * p_calls / (p_us * 1000) / 1000,
             boost::test_tools::tolerance(1e-2));
  BOOST_TEST(std::fabs(num(pw.at("tflops_pct"))) < 10.0);  // the generator's jitter
  BOOST_TEST(num(pw.at("control_gbps")) > 0);

  // Rows whose kernels carry no figures have none.
  for (const auto& v : j.at("rows").as_array())
    if (!std::string_view(v.at("name").as_string()).starts_with("triton_") || v.at("device").as_string() != "gpu")
      BOOST_TEST(!v.as_object().contains("inductor"), v.at("name").as_string());

  // A family's rates are over its kernels' sums: the rows' GB/s weighted by their time.
  std::size_t families = 0;
  for (const auto& fv : j.at("families").as_array()) {
    const auto& f = fv.as_object();
    if (!f.contains("inductor")) continue;
    ++families;
    double bytes = 0, ns = 0;
    for (const auto& v : j.at("rows").as_array()) {
      const auto& r = v.as_object();
      if (!r.contains("family") || r.at("family") != f.at("family") || !r.contains("inductor")) continue;
      const auto& g = r.at("inductor").at("control_gbps");
      if (g.is_null()) continue;
      const double t = num(r.at("control_total_us")) * 1000;
      bytes += num(g) * t;
      ns += t;
    }
    BOOST_REQUIRE(ns > 0);
    BOOST_TEST(num(f.at("inductor").at("control_gbps")) == bytes / ns, boost::test_tools::tolerance(1e-3));
  }
  BOOST_TEST(families > 0u);

  // Summaries keep the figures: the same rates from *.tdsum.json.
  const auto dir = temp_dir("inductor-sum");
  BOOST_REQUIRE(run_cli({"summarize", c, "-o", dir + "/c.tdsum.json", "-q"}).exit_code == 0);
  BOOST_REQUIRE(run_cli({"summarize", t, "-o", dir + "/t.tdsum.json", "-q"}).exit_code == 0);
  const auto js = report_json(dir + "/c.tdsum.json", dir + "/t.tdsum.json");
  const auto* spoi = row_named(js, "triton_poi_fused_add_relu_0");
  BOOST_REQUIRE(spoi);
  BOOST_TEST(json::serialize(spoi->at("inductor")) == json::serialize(poi->at("inductor")));

  // The CSV's columns say the same.
  const auto r = run_cli({c, t, "--csv", "-", "-q"});
  BOOST_REQUIRE(r.exit_code == 0);
  const auto csv = parse_csv(r.out);
  const auto& head = csv.at(0);
  const auto col = [&](std::string_view name) {
    for (std::size_t i = 0; i < head.size(); ++i)
      if (head[i] == name) return i;
    BOOST_FAIL("no column " << name);
    return std::size_t{0};
  };
  bool found = false;
  for (const auto& line : csv)
    if (line.at(0) == "triton_poi_fused_add_relu_0" && line.at(col("device")) == "gpu") {
      found = true;
      BOOST_TEST(std::stod(line.at(col("inductor_control_gbps"))) == num(w.at("control_gbps")),
                 boost::test_tools::tolerance(1e-6));
      BOOST_TEST(line.at(col("inductor_control_tflops")).empty());
    }
  BOOST_TEST(found);
  // The HTML table's FLOP column shows the rates.
  BOOST_REQUIRE(run_cli({c, t, "-o", dir + "/r.html", "-q"}).exit_code == 0);
  const auto html = read_file(dir + "/r.html");
  BOOST_TEST(html.find(" GB/s (-") != std::string::npos);  // the slowed kernel's "(-50.0%)"
  BOOST_TEST(html.find(" TFLOP/s (") != std::string::npos);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
