// compare_traces (the unit tests' and the fuzz target's way in) takes the path the CLI
// takes: each side summarised with --launcher, --by-shape and its marker, then
// compare_summaries. Both give the same report, byte for byte in JSON.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "cli/load.hpp"
#include "cli/options.hpp"
#include "output/writers.hpp"
#include "reading/trace_set_reader.hpp"
#include "support/test_support.hpp"

using namespace tracediff;

namespace {

std::string op(const char* name, long ts, long dur, const char* dims) {
  return std::string(R"({"ph": "X", "cat": "cpu_op", "name": ")") + name + R"(", "pid": 1, "tid": 1, "ts": )" +
         std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": {"Input Dims": )" + dims +
         R"(, "Input type": ["float", "float"]}})";
}

// Three steps; in each, aten::linear around aten::addmm around the launch of one GEMM of
// gemm_us. The innermost launcher is aten::addmm, the outermost aten::linear.
std::string side_trace(long gemm_us) {
  std::vector<std::string> ev;
  for (long s = 0; s < 3; ++s) {
    const long t = s * 1000;
    ev.push_back(test::x_event("user_annotation", "ProfilerStep#" + std::to_string(s + 1), 1, 1, t, 900));
    ev.push_back(op("aten::linear", t + 10, 300, "[[64,1024],[4096,1024]]"));
    ev.push_back(op("aten::addmm", t + 20, 200, "[[64,1024],[1024,4096]]"));
    ev.push_back(test::x_event("cuda_runtime", "cudaLaunchKernel", 1, 1, t + 30, 10, 100 + s));
    ev.push_back(test::x_event("kernel", "gemm_kernel", 0, 7, t + 50, gemm_us, 100 + s));
  }
  return test::trace_json(ev);
}

struct Pair {
  std::string control, test;
};

Pair write_pair(const std::string& tag) {
  const auto dir = test::temp_dir(tag);
  Pair p{dir + "/control", dir + "/test"};
  std::filesystem::create_directories(p.control);
  std::filesystem::create_directories(p.test);
  test::write_file(p.control + "/rank0.json", side_trace(100));
  test::write_file(p.test + "/rank0.json", side_trace(150));
  return p;
}

std::string json_of(const model::DiffReport& report) {
  std::ostringstream out;
  output::write_json(report, out);
  return out.str();
}

// The CLI's own path: argv parsed into Options, then load_and_compare.
std::string via_cli(const Pair& p, std::vector<std::string> extra) {
  std::vector<std::string> args = {"tracediff", p.control, p.test, "--json", "-", "-j", "1",
                                   "--label-control", "Control", "--label-test", "Test"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  cli::Options o;
  BOOST_REQUIRE(cli::parse_options(static_cast<int>(argv.size()), argv.data(), o) == cli::ParseOutcome::run);
  return json_of(cli::load_and_compare(o, {}));
}

// compare_traces on sets read here, with options built by hand (not by the CLI's parser).
std::string via_compare_traces(const Pair& p, bool by_shape, analysis::LauncherLevel launcher) {
  reading::ReadOptions ro;
  ro.by_shape = by_shape;
  const auto sets = reading::read_trace_sets({{"Control", {p.control}, {}}, {"Test", {p.test}, {}}}, ro, 1);
  analysis::CompareOptions co;
  co.by_shape = by_shape;
  return json_of(analysis::compare_traces(sets[0], sets[1], co, {.launcher = launcher}));
}

std::vector<std::string> launchers(const std::string& json) {
  std::vector<std::string> names;
  const auto report = test::parse_json(json);  // kept: the loop below reads into it
  for (const auto& l : report.as_object().at("by_launcher").as_array())
    names.emplace_back(l.at("launcher").as_string());
  return names;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(compare_traces)

BOOST_AUTO_TEST_CASE(same_json_as_the_cli_with_by_shape_and_outermost_launcher) {
  const auto p = write_pair("ct-outer");
  const auto cli_json = via_cli(p, {"--by-shape", "--launcher", "outermost"});
  const auto ours = via_compare_traces(p, true, analysis::LauncherLevel::outermost);
  BOOST_TEST(ours == cli_json);
  // The options took effect: GPU time goes to the outermost operator, rows carry shapes.
  const auto names = launchers(ours);
  // With --by-shape a launcher and a row are named with their shapes.
  BOOST_TEST(has(names, "aten::linear [[64,1024],[4096,1024]] (float,float)"));
  BOOST_TEST(names.size() == 1u);
  BOOST_TEST(test::parse_json(ours).as_object().at("by_shape").as_bool());  // written only when on
  bool addmm_shape = false;
  const auto report = test::parse_json(ours);
  for (const auto& row : report.as_object().at("rows").as_array())
    if (row.at("name").as_string().starts_with("aten::addmm"))
      addmm_shape = row.at("shape").as_string() == "[[64,1024],[1024,4096]] (float,float)";
  BOOST_TEST(addmm_shape);
}

BOOST_AUTO_TEST_CASE(the_launcher_level_changes_the_report) {
  // Guards the case above: were the level ignored, innermost and outermost would agree.
  const auto p = write_pair("ct-levels");
  const auto inner = via_compare_traces(p, true, analysis::LauncherLevel::innermost);
  const auto outer = via_compare_traces(p, true, analysis::LauncherLevel::outermost);
  BOOST_TEST(inner != outer);
  BOOST_TEST(has(launchers(inner), "aten::addmm [[64,1024],[1024,4096]] (float,float)"));
  BOOST_TEST(inner == via_cli(p, {"--by-shape"}));  // innermost is the CLI's default
}

BOOST_AUTO_TEST_CASE(same_json_as_the_cli_without_options) {
  const auto p = write_pair("ct-plain");
  const auto ours = via_compare_traces(p, false, analysis::LauncherLevel::innermost);
  BOOST_TEST(ours == via_cli(p, {}));
  BOOST_TEST(!test::parse_json(ours).as_object().contains("by_shape"));
}

BOOST_AUTO_TEST_CASE(side_options_take_the_comparisons_shape_and_each_sides_marker) {
  analysis::CompareOptions co;
  co.by_shape = true;
  co.test.step_marker = std::make_shared<analysis::StepMarker>("fwd*", "--step-marker");
  const analysis::SummarizeOptions base{.launcher = analysis::LauncherLevel::module, .by_shape = false};
  const auto c = analysis::side_summarize_options(base, co, co.control);
  const auto t = analysis::side_summarize_options(base, co, co.test);
  BOOST_TEST((c.launcher == analysis::LauncherLevel::module && t.launcher == analysis::LauncherLevel::module));
  BOOST_TEST((c.by_shape && t.by_shape));
  BOOST_TEST(c.marker == nullptr);
  BOOST_TEST(t.marker == co.test.step_marker.get());
}

BOOST_AUTO_TEST_SUITE_END()
