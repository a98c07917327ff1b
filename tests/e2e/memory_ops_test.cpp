// Memory per operator end to end (issue 29 items 2 and 3): tracegen --memory's sides,
// each allocation charged to the innermost CPU operator open on its thread, the rows'
// allocated bytes and what they still hold at the step's end, the "allocates more"
// list, the gate on an operator's allocations, and each side's memory timeline, in the
// new format and in the old one (Bytes alone, host events' tid written as text).
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;

namespace {

constexpr long long k_base = 1073741824;  // tracegen: allocated before the first step
constexpr double k_peak_c = 100000000, k_peak_t = 300000000, k_leak = 1000000;

double num(const boost::json::value& v) { return v.is_double() ? v.as_double() : static_cast<double>(v.as_int64()); }

const boost::json::object& row(const boost::json::object& j, const std::string& name) {
  for (const auto& r : j.at("rows").as_array())
    if (r.at("name").as_string() == name && r.at("category").as_string() == "cpu_op") return r.as_object();
  throw std::runtime_error("no row " + name);
}

struct Run {
  boost::json::object json;
  int exit_code;
  std::string out;
};

Run compare(const std::string& tag, bool old) {
  std::vector<std::string> common{"--ranks", "1", "--steps", "8", "--layers", "2", "--jitter", "2", "--memory"};
  if (old) common.push_back("--memory-old");
  auto c_args = common, t_args = common;
  c_args.insert(c_args.end(), {"--memory-peak", "aten::addmm=100000000"});
  t_args.insert(t_args.end(), {"--memory-peak", "aten::addmm=300000000", "--memory-leak", "1000000"});
  const auto c = tracegen(tag + "-c", c_args), t = tracegen(tag + "-t", t_args);
  const auto dir = temp_dir(tag + "-out");
  const auto r = run_cli({c, t, "--json", dir + "/r.json", "--fail-on", "op:aten::*.allocated>+20%", "--fail-on",
                          "op:aten::addmm.allocated>+1GB"});
  return {parse_json(read_file(dir + "/r.json")).as_object(), r.exit_code, r.out};
}

// What both formats must give: only where the allocations went, not the allocator's totals.
void check_operators(const Run& r) {
  const auto& j = r.json;
  // aten::addmm holds the peak: per step, its calls × the peak, plus its temporaries on both sides alike.
  const auto& addmm = row(j, "aten::addmm");
  const double calls = num(addmm.at("test_count_per_step"));
  BOOST_TEST(calls == num(addmm.at("control_count_per_step")));
  BOOST_TEST(num(addmm.at("allocated_self_test_bytes")) - num(addmm.at("allocated_self_control_bytes")) ==
             calls * (k_peak_t - k_peak_c));
  BOOST_TEST(num(addmm.at("allocated_self_diff_bytes")) == calls * (k_peak_t - k_peak_c));
  BOOST_TEST(addmm.at("allocated_self_verdict").as_string() == "slower");
  // Inclusive: aten::linear holds every aten::addmm of the forward pass.
  const auto& linear = row(j, "aten::linear");
  BOOST_TEST(num(linear.at("allocated_test_bytes")) - num(linear.at("allocated_control_bytes")) ==
             calls * (k_peak_t - k_peak_c));
  BOOST_TEST(num(linear.at("allocated_self_diff_bytes")) == 0.0);
  // aten::mse_loss leaks once a step on the test side only.
  const auto& mse = row(j, "aten::mse_loss");
  BOOST_TEST(num(mse.at("allocated_self_diff_bytes")) == k_leak * num(mse.at("test_count_per_step")));
  BOOST_TEST(num(mse.at("allocated_self_count_test")) - num(mse.at("allocated_self_count_control")) ==
             num(mse.at("test_count_per_step")));
  // The list: addmm first (the largest change), then mse_loss; nothing allocates less.
  const auto& more = j.at("allocates_more").as_array();
  BOOST_TEST_REQUIRE(more.size() == 2u);
  BOOST_TEST(more[0].at("name").as_string() == "aten::addmm");
  BOOST_TEST(more[1].at("name").as_string() == "aten::mse_loss");
  BOOST_TEST(j.at("allocates_less").as_array().empty());
  // The gate: every aten:: operator's self bytes, +20 % fires; aten::addmm's +200 MB a call is under +1 GB.
  BOOST_TEST(r.exit_code == 3);
  const auto& gate = j.at("gate").as_array();
  BOOST_TEST(gate[0].at("outcome").as_string() == "fired");
  BOOST_TEST(gate[1].at("outcome").as_string() == "passed");
  // Both timelines name the operator at their peak.
  for (const char* side : {"control", "test"}) {
    const auto& t = j.at("memory_timeline").at(side).as_object();
    BOOST_TEST(t.at("peak_op").as_string() == "aten::addmm");
    BOOST_TEST(!t.at("points").as_array().empty());
    BOOST_TEST(t.at("points").as_array().size() <= 500u);
  }
}

// Each call-tree path's self allocations per step, (control, test), by the names along it.
std::map<std::string, std::pair<double, double>> tree_allocations(const boost::json::object& j) {
  std::map<std::string, std::pair<double, double>> out;
  std::vector<std::pair<const boost::json::object*, std::string>> todo;
  for (const auto& n : j.at("call_tree").at("top").as_array()) todo.push_back({&n.as_object(), ""});
  while (!todo.empty()) {
    const auto [n, up] = todo.back();
    todo.pop_back();
    const auto path = up + "/" + std::string(n->at("name").as_string());
    const auto bytes = [&](const char* side) {
      const auto& s = n->at(side);
      return s.is_null() ? 0.0 : num(s.at("allocated_self_bytes"));
    };
    auto& v = out[path];
    v.first += bytes("control"), v.second += bytes("test");
    if (const auto* ch = n->if_contains("children"))
      for (const auto& c : ch->as_array()) todo.push_back({&c.as_object(), path});
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(memory_ops)

BOOST_AUTO_TEST_CASE(allocations_go_to_the_innermost_operator) {
  const auto r = compare("memops", false);
  check_operators(r);
  const auto& j = r.json;
  // Held at the step's end (frees matched by Addr): the leak, on the test side only.
  const auto& mse = row(j, "aten::mse_loss");
  BOOST_TEST(num(mse.at("allocated_held_test_bytes")) == k_leak * num(mse.at("test_count_per_step")));
  BOOST_TEST(num(mse.at("allocated_held_control_bytes")) == 0.0);
  BOOST_TEST(num(row(j, "aten::addmm").at("allocated_held_test_bytes")) == 0.0);
  // The control's timeline: Total Allocated, the peak the weights plus aten::addmm's hold.
  const auto& c = j.at("memory_timeline").at("control").as_object();
  BOOST_TEST(c.at("values").as_string() == "total_allocated");
  BOOST_TEST(num(c.at("peak_bytes")) == static_cast<double>(k_base) + k_peak_c);
  BOOST_TEST(c.at("device").as_string() == "GPU 0");
  // The test's: the peak is the control's + 200 MB + what the leak left before that step.
  const auto& t = j.at("memory_timeline").at("test").as_object();
  const double leaked = num(t.at("peak_bytes")) - static_cast<double>(k_base) - k_peak_t;
  BOOST_TEST(leaked >= 0.0);
  BOOST_TEST(std::fmod(leaked, k_leak) == 0.0);
  // The terminal names them.
  BOOST_TEST(r.out.find("Allocates more:") != std::string::npos);
}

// PyTorch before 1.10: Bytes alone, and host events' tid a string where the memory
// events' is a number: they are one thread all the same.
BOOST_AUTO_TEST_CASE(old_traces_charge_operators_too) {
  const auto r = compare("memops-old", true);
  check_operators(r);
  // No Addr: nothing can be matched, so nothing is held.
  BOOST_TEST(num(row(r.json, "aten::mse_loss").at("allocated_held_test_bytes")) == 0.0);
  const auto& c = r.json.at("memory_timeline").at("control").as_object();
  BOOST_TEST(c.at("values").as_string() == "growth");
  // From the step's start: nothing held before aten::addmm's hold.
  BOOST_TEST(num(c.at("peak_bytes")) == k_peak_c);
}

// A summary keeps each (operator, step)'s allocations and the median step's timeline:
// the rows, lists and timeline compare as their traces do.
BOOST_AUTO_TEST_CASE(summaries_keep_what_operators_allocate) {
  const auto c = tracegen("memopsum-c", {"--ranks", "1", "--steps", "5", "--layers", "1", "--memory"});
  const auto t = tracegen("memopsum-t", {"--ranks", "1", "--steps", "5", "--layers", "1", "--memory", "--memory-leak",
                                         "1000000"});
  const auto dir = temp_dir("memopsum-out");
  for (const auto& [in, out] : {std::pair{c, dir + "/c.tdsum.json"}, std::pair{t, dir + "/t.tdsum.json"}})
    BOOST_REQUIRE_MESSAGE(run_cli({"summarize", in, "-o", out}).exit_code == 0, out);
  const auto traces = report_json(c, t), summaries = report_json(dir + "/c.tdsum.json", dir + "/t.tdsum.json");
  BOOST_TEST_REQUIRE(!traces.at("allocates_more").as_array().empty());
  BOOST_TEST(traces.at("allocates_more") == summaries.at("allocates_more"));
  std::size_t compared = 0;
  for (const auto& row : traces.at("rows").as_array()) {
    if (!row.as_object().contains("allocated_self_test_bytes")) continue;
    const auto& same = [&]() -> const boost::json::object& {
      for (const auto& s : summaries.at("rows").as_array())
        if (s.at("name") == row.at("name") && s.at("category") == row.at("category")) return s.as_object();
      throw std::runtime_error("row missing from the summaries' report");
    }();
    for (const auto& [k, v] : row.as_object())
      if (k.starts_with("allocated_")) BOOST_TEST(same.at(k) == v, k);
    ++compared;
  }
  BOOST_TEST(compared > 10u);
  for (const char* side : {"control", "test"}) {
    BOOST_TEST_REQUIRE(traces.at("memory_timeline").at(side).is_object(), side);
    BOOST_TEST(!traces.at("memory_timeline").at(side).at("peak_op").as_string().empty(), side);
    BOOST_TEST(summaries.at("memory_timeline").at(side) == traces.at("memory_timeline").at(side), side);
  }
}

// The call tree's nodes carry the self bytes of the operators at their path: summed over
// the tree they are the rows' self bytes, and the peak's path moves by the peak.
BOOST_AUTO_TEST_CASE(call_tree_nodes_carry_self_allocations) {
  std::vector<std::string> common{"--ranks", "1", "--steps", "6", "--layers", "2", "--memory"};
  auto c_args = common, t_args = common;
  c_args.insert(c_args.end(), {"--memory-peak", "aten::addmm=100000000"});
  t_args.insert(t_args.end(), {"--memory-peak", "aten::addmm=300000000", "--memory-leak", "1000000"});
  const auto c = tracegen("memtree-c", c_args), t = tracegen("memtree-t", t_args);
  const auto dir = temp_dir("memtree-out");
  BOOST_REQUIRE(run_cli({c, t, "--json", dir + "/r.json", "--json-full-tree"}).exit_code == 0);
  const auto j = parse_json(read_file(dir + "/r.json")).as_object();
  double rows_c = 0, rows_t = 0;
  for (const auto& r : j.at("rows").as_array()) {
    if (!r.as_object().contains("allocated_self_control_bytes")) continue;
    rows_c += num(r.at("allocated_self_control_bytes")), rows_t += num(r.at("allocated_self_test_bytes"));
  }
  const auto tree = tree_allocations(j);
  double tree_c = 0, tree_t = 0;
  std::size_t moved = 0;
  for (const auto& [path, v] : tree) {
    tree_c += v.first, tree_t += v.second;
    if (v.second != v.first) {
      ++moved;
      // Only the peak's operator and the leak's move.
      BOOST_TEST((path.ends_with("/aten::addmm") || path.ends_with("/aten::mse_loss")), path);
    }
  }
  BOOST_TEST(rows_c > 0.0);
  BOOST_TEST(std::abs(tree_c - rows_c) < 1.0);
  BOOST_TEST(std::abs(tree_t - rows_t) < 1.0);
  BOOST_TEST(moved > 0u);
  const double calls = num(row(j, "aten::addmm").at("test_count_per_step"));
  double addmm = 0;
  for (const auto& [path, v] : tree)
    if (path.ends_with("/aten::addmm")) addmm += v.second - v.first;
  BOOST_TEST(addmm == calls * (k_peak_t - k_peak_c));
  // Summaries give the same figures.
  for (const auto& [in, out] : {std::pair{c, dir + "/c.tdsum.json"}, std::pair{t, dir + "/t.tdsum.json"}})
    BOOST_REQUIRE_MESSAGE(run_cli({"summarize", in, "-o", out}).exit_code == 0, out);
  BOOST_REQUIRE(run_cli({dir + "/c.tdsum.json", dir + "/t.tdsum.json", "--json", dir + "/s.json", "--json-full-tree"})
                    .exit_code == 0);
  BOOST_TEST((tree_allocations(parse_json(read_file(dir + "/s.json")).as_object()) == tree));
}

BOOST_AUTO_TEST_SUITE_END()
