// The report's call tree (analysis/call_tree): paths matched across the sides, each
// node judged; a row's path and the call inside it that explains its change.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>

#include "support/pair_support.hpp"

using namespace tracediff;

namespace {

// The node at the end of PATH (names from the top), or k_no_node.
std::uint32_t node_at(const model::CallTree& t, const std::vector<std::string>& path) {
  for (std::uint32_t i = 0; i < t.nodes.size(); ++i) {
    const auto p = t.path(i);
    if (p.size() == path.size() && std::equal(p.begin(), p.end(), path.begin())) return i;
  }
  return model::k_no_node;
}

// aten::linear around aten::addmm, which launches gemm.
model::DiffReport linear_pair(long control_gemm_us, long test_gemm_us, long test_addmm_us = 40) {
  return test::compare_pair(test::steps_trace({{"aten::addmm", 40, "gemm", control_gemm_us, "aten::linear"}}),
                            test::steps_trace({{"aten::addmm", test_addmm_us, "gemm", test_gemm_us, "aten::linear"}}));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(call_tree_unit)

BOOST_AUTO_TEST_CASE(nesting_becomes_paths) {
  const auto r = linear_pair(100, 100);
  const auto& t = r.call_tree;
  const auto linear = node_at(t, {"aten::linear"});
  const auto addmm = node_at(t, {"aten::linear", "aten::addmm"});
  BOOST_REQUIRE(linear != model::k_no_node);
  BOOST_REQUIRE(addmm != model::k_no_node);
  BOOST_TEST(t.nodes[addmm].parent == linear);
  BOOST_TEST((std::find(t.top.begin(), t.top.end(), linear) != t.top.end()));
  BOOST_TEST(t.nodes[addmm].control.count == 1.0);  // one call a step
}

BOOST_AUTO_TEST_CASE(gpu_work_hangs_under_its_launch_path) {
  const auto r = linear_pair(100, 200);
  const auto& t = r.call_tree;
  const auto addmm = node_at(t, {"aten::linear", "aten::addmm"});
  BOOST_REQUIRE(addmm != model::k_no_node);
  // GPU time launched under the path: 100 + 2.5 -> 200 + 2.5 us a step.
  BOOST_TEST(t.nodes[addmm].gpu.control == 102500.0);
  BOOST_TEST(t.nodes[addmm].gpu.test == 202500.0);
  BOOST_TEST(t.nodes[addmm].gpu.significant);
  // The kernel's own node lies under addmm's path (below the launch call).
  bool gemm_below = false;
  for (std::uint32_t i = 0; i < t.nodes.size(); ++i) {
    if (t.nodes[i].name != "gemm" || t.nodes[i].device != model::Device::gpu) continue;
    for (auto up = t.nodes[i].parent; up != model::k_no_node; up = t.nodes[up].parent) gemm_below |= up == addmm;
    BOOST_TEST(t.nodes[i].time.diff() == 100000.0);
  }
  BOOST_TEST(gemm_below);
}

BOOST_AUTO_TEST_CASE(host_time_is_judged_per_node) {
  const auto r = linear_pair(100, 100, 80);  // addmm 40 -> 80 us
  const auto& t = r.call_tree;
  const auto addmm = node_at(t, {"aten::linear", "aten::addmm"});
  BOOST_REQUIRE(addmm != model::k_no_node);
  BOOST_TEST(t.nodes[addmm].time.diff() == 40000.0);
  BOOST_TEST((t.nodes[addmm].time.verdict == model::Verdict::slower));
  // The outer call grows by as much: it holds addmm.
  BOOST_TEST(t.nodes[node_at(t, {"aten::linear"})].time.diff() == 40000.0);
}

BOOST_AUTO_TEST_CASE(a_row_is_explained_by_the_call_inside_it) {
  const auto r = linear_pair(100, 100, 80);
  const auto* linear = test::row_named(r, "aten::linear");
  BOOST_REQUIRE(linear);
  BOOST_REQUIRE(linear->explained_by < r.rows.size());
  BOOST_TEST(r.rows[linear->explained_by].name == "aten::addmm");
}

BOOST_AUTO_TEST_CASE(an_unchanged_pair_has_no_significant_node) {
  const auto r = linear_pair(100, 100);
  for (const auto& n : r.call_tree.nodes) BOOST_TEST(!n.time.significant, n.name);
}

BOOST_AUTO_TEST_SUITE_END()
