// Why the step moved (generated pairs with one known cause each): the parts of the step
// add up to its change, the bottom line names the cause first, every view prints it, and
// the gate takes the parts.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

double num(const json::value& v) { return v.is_double() ? v.as_double() : static_cast<double>(v.as_int64()); }

// The parts' Δs add up to the step's Δ (per GPU, means over steps), to rounding.
void check_adds_up(const json::object& j) {
  const auto& sb = j.at("step_breakdown").as_object();
  double sum = 0;
  for (const auto& p : sb.at("parts").as_array()) sum += num(p.at("diff"));
  const double step = num(sb.at("step").at("diff"));
  BOOST_TEST(std::fabs(sum - step) <= 0.01 + 1e-6 * std::fabs(step), sum << " vs " << step);
  double control = 0;
  for (const auto& p : sb.at("parts").as_array()) control += num(p.at("control"));
  BOOST_TEST(std::fabs(control - num(sb.at("step").at("control"))) <= 0.01 + 1e-6 * control);
}

std::string first_bar(const json::object& j) {
  const auto& bars = j.at("step_breakdown").at("bars").as_array();
  return bars.empty() ? std::string() : std::string(bars[0].as_string());
}

struct Pair {
  std::string c, t;
};
Pair pair(const std::string& tag, std::vector<std::string> control, std::vector<std::string> test) {
  std::vector<std::string> common = {"--steps", "8", "--jitter", "1"};
  control.insert(control.end(), common.begin(), common.end());
  test.insert(test.end(), common.begin(), common.end());
  test.insert(test.end(), {"--seed", "7"});
  return {tracegen(tag + "-c", control), tracegen(tag + "-t", test)};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(why)

// A slow Python loop between launches: the GPU waits for the host, and says so first.
BOOST_AUTO_TEST_CASE(launch_bound) {
  const auto p = pair("why-launch", {"--ranks", "1"}, {"--ranks", "1", "--launch-gap", "200"});
  const auto j = report_json(p.c, p.t);
  check_adds_up(j);
  BOOST_TEST(first_bar(j) == "idle.host_launch");
  const auto& sb = j.at("step_breakdown").as_object();
  BOOST_TEST(sb.at("bottom_line").as_string().starts_with("Step +"));
  BOOST_TEST(sb.at("bottom_line").as_string().find("GPU idle, waiting for launches +") != json::string::npos,
             sb.at("bottom_line").as_string());
  BOOST_TEST(sb.at("equation").as_string().starts_with("Step +"));
  // The gate takes the part: a 2 ms threshold per step fires, a 1 s one does not.
  const auto fired = run_cli({p.c, p.t, "--csv", "/dev/null", "-q", "--fail-on", "idle.host_launch>+100us"});
  BOOST_TEST(fired.exit_code == 3, fired.err);
  const auto passed = run_cli({p.c, p.t, "--csv", "/dev/null", "-q", "--fail-on", "idle.host_launch>+1s"});
  BOOST_TEST(passed.exit_code == 0, passed.err);
  // Every view opens with the same bottom line.
  const auto md = run_cli({p.c, p.t, "--markdown", "-", "-q"});
  BOOST_TEST(md.out.find("**Why:** Step +") != std::string::npos, md.out);
  const auto term = run_cli({p.c, p.t, "-o", temp_dir("why-launch-html") + "/r.html"});
  BOOST_TEST(term.out.find("\nStep +") != std::string::npos, term.out);
}

// The all-reduces after the backward instead of under it: exposed all-reduce leads.
BOOST_AUTO_TEST_CASE(communication_exposed) {
  // Eight layers: two gradient buckets, the first all-reduce under the rest of the backward.
  const auto p = pair("why-comm", {"--ranks", "2", "--layers", "8", "--no-sync"},
                      {"--ranks", "2", "--layers", "8", "--no-sync", "--comm-exposed"});
  const auto j = report_json(p.c, p.t);
  check_adds_up(j);
  const auto& sb = j.at("step_breakdown").as_object();
  bool exposed_up = false;
  for (const auto& part : sb.at("parts").as_array())
    if (part.at("part").as_string() == "exposed.all_reduce") exposed_up = num(part.at("diff")) > 0;
  BOOST_TEST(exposed_up);
  BOOST_TEST(num(sb.at("exposed_comm").at("diff")) > 0);
  BOOST_TEST(sb.at("exposed_comm").at("significant").as_bool());
  const auto r = run_cli({p.c, p.t, "--csv", "/dev/null", "-q", "--fail-on", "exposed_comm>+10%"});
  BOOST_TEST(r.exit_code == 3, r.err);
}

// The data loader leaves the main thread: the GPU no longer idles while the host loads,
// and the bottom line names the loader.
BOOST_AUTO_TEST_CASE(data_loader_left_the_main_thread) {
  const auto p = pair("why-loader", {"--ranks", "1", "--loader-on-main", "5"}, {"--ranks", "1"});
  const auto j = report_json(p.c, p.t);
  check_adds_up(j);
  const auto& sb = j.at("step_breakdown").as_object();
  BOOST_TEST(first_bar(j).starts_with("idle."), first_bar(j));
  BOOST_TEST(sb.at("bottom_line").as_string().starts_with("Step -"), sb.at("bottom_line").as_string());
  BOOST_TEST(sb.at("bottom_line").as_string().find("enumerate(DataLoader)") != json::string::npos,
             sb.at("bottom_line").as_string());
}

// Real traces: the parts add up on every GPU's step.
BOOST_AUTO_TEST_CASE(real_pair_adds_up) {
  const auto c = trace_path("hta-trace-compare/base"), t = trace_path("hta-trace-compare/test");
  BOOST_REQUIRE(!c.empty() && !t.empty());
  check_adds_up(report_json(c, t));
}

// Unknown part names are usage errors that list the parts.
BOOST_AUTO_TEST_CASE(gate_names_the_parts) {
  const auto p = pair("why-gate", {"--ranks", "1"}, {"--ranks", "1"});
  const auto r = run_cli({p.c, p.t, "--csv", "/dev/null", "-q", "--fail-on", "idle.bogus>+1ms"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("idle.host_launch") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
