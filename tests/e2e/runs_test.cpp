// Several runs a side (docs/is-it-real.md "Several runs"): --runs, --control-run and
// --test-run; the noise test between runs; one run a side says run-to-run noise was not
// measured; runs on other GPUs within a side are a difference. Generated runs each get
// their own GPU speed (--gpu-factor), the run-level offset autotuners and clocks give.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

// Each run's GPU speed: 1 + N(0, 10 %), drawn once (Python's random.seed(100 + i)).
const char* const k_factor[] = {"0.9426", "1.0826", "1.1094", "1.1963", "1.0668",
                                "0.9474", "1.0029", "1.1254", "0.9795", "1.0908"};

std::string run(int i, std::vector<std::string> extra = {}, const std::string& tag = "runs") {
  std::vector<std::string> args = {"--layers", "4", "--steps", "6", "--seed", std::to_string(i + 1), "--jitter", "1",
                                   "--gpu-factor", k_factor[i]};
  args.insert(args.end(), extra.begin(), extra.end());
  return tracegen(tag + std::to_string(i), args);
}

// CONTROL TEST and --add-* for runs c[0..] against t[0..].
std::vector<std::string> sides(const std::vector<std::string>& c, const std::vector<std::string>& t) {
  std::vector<std::string> args = {c[0], t[0]};
  for (std::size_t i = 1; i < c.size(); ++i) args.insert(args.end(), {"--add-control", c[i]});
  for (std::size_t i = 1; i < t.size(); ++i) args.insert(args.end(), {"--add-test", t[i]});
  return args;
}

std::size_t real_rows(const json::object& r) {
  std::size_t n = 0;
  for (const auto& row : r.at("rows").as_array()) n += row.at("significant").as_bool();
  return n;
}

std::vector<std::string> with(std::vector<std::string> a, std::vector<std::string> b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

bool has_note(const json::object& r, const std::string& text) {
  for (const auto& n : r.at("notes").as_array())
    if (std::string(n.as_string()).find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(runs)

BOOST_AUTO_TEST_CASE(a_a_runs_with_run_offsets_are_noise_between_runs) {
  std::vector<std::string> c, t;
  for (int i = 0; i < 5; ++i) c.push_back(run(i));
  for (int i = 5; i < 10; ++i) t.push_back(run(i));
  // The five runs pooled as one: each run's GPU speed reads as a change of its kernels.
  const auto pooled = report_json(sides(c, t));
  BOOST_TEST(!pooled.at("between_runs").as_bool());
  BOOST_TEST(real_rows(pooled) > 5u);
  const auto runs = report_json(with(sides(c, t), {"--runs"}));
  BOOST_TEST(runs.at("between_runs").as_bool());
  BOOST_TEST(real_rows(runs) == 0u);
  BOOST_TEST(runs.at("control").at("runs").as_array().size() == 5u);
  BOOST_TEST(runs.at("test").at("runs").at(0).at("steps").as_int64() == 12);  // 2 ranks x 6 steps
  BOOST_TEST(runs.at("control").at("runs").at(2).at("inputs").as_string() == c[2]);
  BOOST_TEST(has_note(runs, "Judged between runs: Control 5 runs, Test 5 runs"));
  // A rank in every run is no duplicate.
  BOOST_TEST(!runs.at("diagnostics").at("counts").as_object().contains("rank_duplicate"));
  // --control-run / --test-run give the same report.
  std::vector<std::string> flags = {c[0], t[0]};
  for (int i = 1; i < 5; ++i) flags.insert(flags.end(), {"--control-run", c[i], "--test-run", t[i]});
  const auto same = run_cli(with(flags, {"--json", "-", "-q"}));
  BOOST_TEST(same.out == run_cli(with(sides(c, t), {"--runs", "--json", "-", "-q"})).out);
}

BOOST_AUTO_TEST_CASE(a_real_change_is_found_between_runs) {
  std::vector<std::string> c, t;
  for (int i = 0; i < 5; ++i) c.push_back(run(i));
  for (int i = 5; i < 10; ++i) t.push_back(run(i, {"--slowdown", "gemm=1.5"}, "runs-gemm"));
  const auto r = report_json(with(sides(c, t), {"--runs"}));
  std::size_t gemm = 0;
  for (const auto& row : r.at("rows").as_array())
    if (std::string(row.at("name").as_string()).find("sgemm") != std::string::npos)
      gemm += row.at("verdict").as_string() == "slower";
  BOOST_TEST(gemm >= 3u);
  const auto md = run_cli(with(sides(c, t), {"--runs", "--markdown", "-", "-q"}));
  BOOST_TEST(md.out.find("slower (judged between runs, 5 a side)") != std::string::npos, md.out.substr(0, 300));
}

BOOST_AUTO_TEST_CASE(one_run_a_side_says_run_to_run_noise_was_not_measured) {
  const auto c = run(0), t = run(5, {"--slowdown", "gemm=1.5"}, "runs-gemm");
  const auto r = report_json(c, t, {});
  BOOST_TEST(!r.at("between_runs").as_bool());
  BOOST_TEST(!r.at("control").as_object().contains("runs"));
  BOOST_TEST(has_note(r, "Run-to-run noise not measured: each side is one run"));
  const auto md = run_cli({c, t, "--markdown", "-", "-q"});
  BOOST_TEST(md.out.find("(within one run: run-to-run noise not measured)") != std::string::npos, md.out.substr(0, 300));
  // Several runs on one side only: still not measured, and said so.
  const auto half = report_json({c, t, "--control-run", run(1)});
  BOOST_TEST(!half.at("between_runs").as_bool());
  BOOST_TEST(has_note(half, "Run-to-run noise not measured: Test is one run (Control has 2 runs)"));
}

BOOST_AUTO_TEST_CASE(three_runs_a_side_are_not_testable_between_runs) {
  std::vector<std::string> c, t;
  for (int i = 0; i < 3; ++i) c.push_back(run(i));
  for (int i = 5; i < 8; ++i) t.push_back(run(i, {"--slowdown", "gemm=3"}, "runs-gemm3"));
  const auto r = report_json(with(sides(c, t), {"--runs"}));
  BOOST_TEST(r.at("between_runs").as_bool());
  BOOST_TEST(real_rows(r) == 0u);
  BOOST_TEST(has_note(r, "Not testable: the rank test needs 5 runs a side"));
  BOOST_TEST(r.at("verdict").at("line").as_string().find("not testable") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(runs_on_other_gpus_within_a_side_are_a_difference) {
  std::vector<std::string> c = {run(0), run(1), run(2, {"--gpu-name", "NVIDIA H100 80GB HBM3"}, "runs-h100")};
  std::vector<std::string> t = {run(5), run(6), run(7)};
  const auto r = report_json(with(sides(c, t), {"--runs"}));
  bool found = false;
  for (const auto& d : r.at("sides_differ").as_array())
    found |= d.at("what").as_string() == "GPU between Control's runs";
  BOOST_TEST(found);
  BOOST_TEST(r.at("diagnostics").at("counts").at("runs_differ").as_int64() == 1);
}

BOOST_AUTO_TEST_CASE(hta_compat_takes_one_run_a_side) {
  const auto res = run_cli({run(0), run(5), "--runs", "--hta-compat", "-q"});
  BOOST_TEST(res.exit_code == 2);
  BOOST_TEST(res.err.find("--hta-compat compares one run a side") != std::string::npos, res.err);
}

BOOST_AUTO_TEST_SUITE_END()
