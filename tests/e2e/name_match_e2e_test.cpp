// Names matched across versions (issue #18): the same model under another install
// and version of its Python code compares as the same model, in rows and call tree.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <filesystem>

#include <map>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {


std::map<std::string, int> changes(const json::object& j) {
  std::map<std::string, int> n;
  for (const auto& r : j.at("rows").as_array()) ++n[std::string(r.at("change").as_string())];
  return n;
}

std::size_t tree_nodes(const json::array& level) {
  std::size_t n = 0;
  for (const auto& v : level) n += 1 + tree_nodes(v.at("children").as_array());
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(name_match_e2e)

BOOST_AUTO_TEST_CASE(python_frames_of_another_version_and_install_match) {
  const std::vector<std::string> common{"--python-stack", "--steps", "6", "--ranks", "1", "--layers", "2"};
  auto moved = common;
  moved.insert(moved.end(), {"--py-line-shift", "12", "--py-prefix", "/opt/venv/lib/python3.11/site-packages/",
                             "--py-address", "7f3a2c000000"});
  const auto c = tracegen("nm-py-c", common);
  const auto t = tracegen("nm-py-t", moved);

  const auto exact = report_json(c, t, {"--exact-names"});
  auto ex = changes(exact);
  BOOST_TEST(ex["added"] > 10);  // what users saw before: every frame added and deleted
  BOOST_TEST(ex["added"] == ex["deleted"]);

  const auto j = report_json(c, t);
  auto n = changes(j);
  BOOST_TEST(n["added"] == 0);
  BOOST_TEST(n["deleted"] == 0);
  BOOST_TEST(j.at("rows").as_array().size() + static_cast<std::size_t>(ex["added"]) == exact.at("rows").as_array().size());
  // The originals are both shown.
  bool seen = false;
  for (const auto& r : j.at("rows").as_array()) {
    if (r.at("name").as_string() != "torch/nn/modules/module.py(1762): _call_impl") continue;
    BOOST_TEST(r.at("test_name").as_string() == "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/module.py(1774): _call_impl");
    BOOST_TEST(r.at("matched_by").as_string() == "python_line");
    BOOST_TEST(r.at("verdict").as_string() == "same");
    seen = true;
  }
  BOOST_TEST(seen);
  // The call tree matches path by path: as many nodes as one side's, not both sides'.
  const auto same = report_json(c, c);
  BOOST_TEST(tree_nodes(j.at("call_tree").at("top").as_array()) ==
             tree_nodes(same.at("call_tree").at("top").as_array()));
  BOOST_TEST(tree_nodes(exact.at("call_tree").at("top").as_array()) >
             tree_nodes(same.at("call_tree").at("top").as_array()));
}

// Every process has its own object addresses: two ranks of one side name one frame alike,
// one row, its calls from both; the address is no part of the name.
BOOST_AUTO_TEST_CASE(object_addresses_are_no_part_of_a_frame_name) {
  const auto rank = [](const std::string& address) {
    return trace_json({x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 1000),
                       x_event("python_function", "<built-in method relu of type object at 0x" + address + ">", 1, 1, 10, 50),
                       x_event("cpu_op", "aten::relu", 1, 1, 20, 30)});
  };
  const auto dir = temp_dir("nm-address");
  std::filesystem::create_directories(dir + "/side");
  write_file(dir + "/side/rank0.json", rank("7ce2864e5ac0"));
  write_file(dir + "/side/rank1.json", rank("55d1a3b07e20"));
  const auto j = report_json(dir + "/side", dir + "/side", {"--exact-names"});
  std::size_t frames = 0;
  for (const auto& r : j.at("rows").as_array()) {
    const std::string name(r.at("name").as_string());
    if (name.find("relu of type object") == std::string::npos) continue;
    ++frames;
    BOOST_TEST(name == "<built-in method relu of type object>");
    BOOST_TEST(r.at("control_count").as_int64() == 2);
  }
  BOOST_TEST(frames == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
