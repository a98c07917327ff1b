// Who launched the GPU work (issue #18): graph replays attributed to the host event
// around the graph launch and flagged; a launch without an operator goes to its
// innermost annotation or Python frame; --launcher picks the level.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {


const json::object* find_launcher(const json::object& j, const std::string& name) {
  for (const auto& l : j.at("by_launcher").as_array())
    if (l.at("launcher").as_string() == name) return &l.as_object();
  return nullptr;
}

double gpu_total(const json::object& j, const char* side) {
  double s = 0;
  for (const auto& l : j.at("by_launcher").as_array()) s += l.at(side).to_number<double>();
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(launcher_level)

// Eager control, test replaying the forward from one graph launched from Python (no
// operator around it): the replay's GPU time belongs to the Python frame, flagged.
BOOST_AUTO_TEST_CASE(a_graph_replayed_from_python_belongs_to_its_frame) {
  const std::vector<std::string> common{"--steps", "6", "--ranks", "1", "--python-stack"};
  auto graphs = common;
  graphs.insert(graphs.end(), {"--cuda-graphs", "--graph-from-python"});
  const auto c = tracegen("ln-graph-c", common);
  const auto t = tracegen("ln-graph-t", graphs);
  const auto j = report_json(c, t);
  BOOST_TEST(!find_launcher(j, "(no enclosing operator)"));
  const auto* g = find_launcher(j, "torch/cuda/graphs.py(88): replay");
  BOOST_REQUIRE(g);
  BOOST_TEST(g->at("graph_replay").as_bool());
  BOOST_TEST(g->at("control_us").to_number<double>() == 0.0);
  // The forward's kernels, a quarter of the step's GPU time, are there.
  BOOST_TEST(g->at("test_us").to_number<double>() > 0.25 * gpu_total(j, "test_us"));
  for (const auto& l : j.at("by_launcher").as_array())
    if (l.at("launcher").as_string() != "torch/cuda/graphs.py(88): replay") BOOST_TEST(!l.at("graph_replay").as_bool());

  // Without Python frames, the innermost annotation around the launch.
  graphs.erase(std::find(graphs.begin(), graphs.end(), "--python-stack"));
  auto plain = common;
  plain.erase(std::find(plain.begin(), plain.end(), "--python-stack"));
  const auto j2 = report_json(tracegen("ln-graph-c2", plain), tracegen("ln-graph-t2", graphs));
  BOOST_TEST(!find_launcher(j2, "(no enclosing operator)"));
  const auto* a = find_launcher(j2, "## forward ##");
  BOOST_REQUIRE(a);
  BOOST_TEST(a->at("graph_replay").as_bool());
}

// The levels: innermost (aten::addmm), outermost (aten::linear), module (the layer's
// nn.Module frame); each level accounts for the same GPU time.
BOOST_AUTO_TEST_CASE(the_launcher_level_is_chosen) {
  const std::vector<std::string> common{"--steps", "6", "--ranks", "1", "--python-stack", "--layers", "2"};
  const auto c = tracegen("ln-level-c", common);
  const auto in = report_json(c, c);
  const auto out = report_json(c, c, {"--launcher", "outermost"});
  const auto mod = report_json(c, c, {"--launcher", "module"});
  BOOST_TEST(find_launcher(in, "aten::addmm"));
  BOOST_TEST(!find_launcher(in, "aten::linear"));
  BOOST_TEST(find_launcher(out, "aten::linear"));
  BOOST_TEST(!find_launcher(out, "aten::addmm"));
  BOOST_TEST(find_launcher(mod, "nn.Module: Linear_0"));
  BOOST_TEST(find_launcher(mod, "nn.Module: Linear_1"));
  BOOST_TEST(!find_launcher(mod, "aten::addmm"));
  BOOST_TEST(gpu_total(in, "control_us") == gpu_total(out, "control_us"), boost::test_tools::tolerance(1e-9));
  BOOST_TEST(gpu_total(in, "control_us") == gpu_total(mod, "control_us"), boost::test_tools::tolerance(1e-9));
  // A level that does not exist is a usage error.
  const auto bad = run_cli({c, c, "--launcher", "nowhere", "-q"});
  BOOST_TEST(bad.exit_code == 2);
}

// A summary keeps the graph flag, and comparing summaries gives the traces' report.
BOOST_AUTO_TEST_CASE(summaries_keep_graph_launchers) {
  const auto c = tracegen("ln-sum-c", {"--steps", "6", "--ranks", "1"});
  const auto t = tracegen("ln-sum-t", {"--steps", "6", "--ranks", "1", "--cuda-graphs"});
  const auto dir = temp_dir("ln-sum");
  for (const auto& [in, out] : {std::pair{c, dir + "/c.tdsum.json"}, std::pair{t, dir + "/t.tdsum.json"}}) {
    const auto r = run_cli({"summarize", in, "-o", out, "-q"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
  const auto direct = run_cli({c, t, "--json", "-", "-q"});
  const auto summed = run_cli({dir + "/c.tdsum.json", dir + "/t.tdsum.json", "--json", "-", "-q"});
  const auto a = parse_json(direct.out).as_object();
  const auto b = parse_json(summed.out).as_object();
  BOOST_TEST(json::serialize(a.at("by_launcher")) == json::serialize(b.at("by_launcher")));
  const auto* g = find_launcher(b, "CUDAGraph::replay");
  BOOST_REQUIRE(g);
  BOOST_TEST(g->at("graph_replay").as_bool());
}

// Eager against torch.compile: the compiled region's Triton kernels are classified by
// the ops fused in their names, so the comparison reads family by family: the layer
// norms the same, the elementwise work faster (fused), the GEMMs (extern) the same.
BOOST_AUTO_TEST_CASE(compiled_kernels_compare_by_family) {
  const std::vector<std::string> common{"--steps", "8", "--ranks", "1", "--seed", "3"};
  auto compiled = common;
  compiled.push_back("--compile");
  const auto j = report_json(tracegen("ln-comp-c", common), tracegen("ln-comp-t", compiled));
  std::map<std::string, std::string> verdict;
  for (const auto& f : j.at("families").as_array())
    verdict[std::string(f.at("family").as_string())] = std::string(f.at("verdict").as_string());
  BOOST_TEST(verdict["gemm"] == "same");
  BOOST_TEST(verdict["normalization"] == "same");
  BOOST_TEST(verdict["elementwise"] == "faster");
  std::size_t triton = 0;
  for (const auto& r : j.at("rows").as_array()) {
    if (r.at("device").as_string() != "gpu" || !std::string(r.at("name").as_string()).starts_with("triton_")) continue;
    ++triton;
    const std::string name(r.at("name").as_string());
    BOOST_TEST(r.at("family").as_string() == (name.find("layer_norm") != std::string::npos ? "normalization" : "elementwise"), name);
    BOOST_TEST(r.at("launched_by").as_string() == name);  // the cpu_op Inductor names after its kernel
  }
  BOOST_TEST(triton > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
