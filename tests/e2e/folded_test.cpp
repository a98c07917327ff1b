// --folded (issue #32): each side's call tree as folded stacks, read back the way
// difffolded.pl and flamegraph.pl read them and re-summed to the JSON's call tree.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "output/folded_writer.hpp"
#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

// A folded file as difffolded.pl reads it: /^(.*)\s+?(\d+(?:\.\d*)?)$/ per line,
// counts of the same stack summed.
std::map<std::string, double> read_folded(const std::string& path) {
  static const std::regex line(R"(^(.*)\s+?(\d+(?:\.\d*)?)$)");
  std::map<std::string, double> out;
  std::istringstream in(read_file(path));
  std::string l;
  while (std::getline(in, l)) {
    std::smatch m;
    BOOST_REQUIRE_MESSAGE(std::regex_match(l, m, line), "not a folded line: " << l);
    out[m[1].str()] += std::stod(m[2].str());
  }
  return out;
}

// The sum of the lines at `stack` or under it.
double under(const std::map<std::string, double>& f, const std::string& stack) {
  double sum = 0;
  for (auto it = f.lower_bound(stack); it != f.end() && it->first.starts_with(stack); ++it)
    if (it->first.size() == stack.size() || it->first[stack.size()] == ';') sum += it->second;
  return sum;
}

double at(const std::map<std::string, double>& f, const std::string& stack) {
  const auto it = f.find(stack);
  return it == f.end() ? 0 : it->second;
}

struct Folded {
  std::map<std::string, double> host, gpu;
};

// Every node of the JSON's tree, with its folded stack, checked against the files.
void check_side(const json::array& level, const std::string& prefix, const Folded& f, const char* side,
                std::size_t& checked) {
  for (const auto& v : level) {
    const auto& n = v.as_object();
    const auto stack = (prefix.empty() ? "" : prefix + ";") +
                       tracediff::output::folded_frame(std::string(n.at("name").as_string()));
    const auto& s = n.at(side).as_object();
    const double incl = s.at("inclusive_us").to_number<double>(), self = s.at("self_us").to_number<double>();
    const double gpu = s.at("gpu_us").to_number<double>();
    // The running sum is rounded: each line and each subtree within 1 µs of its figure.
    if (n.at("device").as_string() == "cpu") {
      BOOST_TEST(std::fabs(at(f.host, stack) - std::max(0.0, self)) <= 1.001, stack << " self " << self);
      BOOST_TEST(std::fabs(under(f.host, stack) - incl) <= 1.001, stack << " inclusive " << incl);
      ++checked;
    } else {
      BOOST_TEST(under(f.host, stack) == 0.0, stack);  // GPU work is not host time
    }
    BOOST_TEST(std::fabs(under(f.gpu, stack) - gpu) <= 1.001, stack << " GPU " << gpu);
    check_side(n.at("children").as_array(), stack, f, side, checked);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(folded)

BOOST_AUTO_TEST_CASE(folded_stacks_sum_to_the_call_tree_of_each_side) {
  const std::vector<std::string> common = {"--python-stack", "--ranks", "2", "--steps", "3"};
  auto slow = common;
  slow.insert(slow.end(), {"--slowdown", "aten::mm=2"});
  const auto c = tracegen("folded-c", common);
  const auto t = tracegen("folded-t", slow);
  const auto out = temp_dir("folded-out");
  const auto dir = out + "/flame";  // made by tracediff
  const auto r = run_cli({c, t, "--json", out + "/r.json", "--json-full-tree", "--folded", dir, "-q"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto j = parse_json(read_file(out + "/r.json")).as_object();
  const auto& top = j.at("call_tree").at("top").as_array();
  BOOST_REQUIRE(!top.empty());
  for (const char* side : {"control", "test"}) {
    const Folded f{read_folded(dir + "/" + side + ".folded"), read_folded(dir + "/" + side + ".gpu.folded")};
    BOOST_TEST(!f.host.empty());
    BOOST_TEST(!f.gpu.empty());
    std::size_t checked = 0;
    check_side(top, "", f, side, checked);
    BOOST_TEST(checked > 10u);
    // Values are whole µs; no line of 0.
    for (const auto* m : {&f.host, &f.gpu})
      for (const auto& [stack, v] : *m) BOOST_TEST((v >= 1 && v == std::floor(v)), stack << ' ' << v);
  }
  // The slowed operator's paths get wider on the test side, as difffolded shows them.
  const auto fc = read_folded(dir + "/control.folded"), ft = read_folded(dir + "/test.folded");
  double c_mm = 0, t_mm = 0;
  for (const auto& [s, v] : fc)
    if (s.find("aten::mm") != std::string::npos) c_mm += v;
  for (const auto& [s, v] : ft)
    if (s.find("aten::mm") != std::string::npos) t_mm += v;
  BOOST_TEST(c_mm > 0);
  BOOST_TEST(t_mm > 1.5 * c_mm);
  // Deterministic: the same inputs give the same bytes.
  const auto again = out + "/again";
  const auto r2 = run_cli({c, t, "--folded", again, "-q"});
  BOOST_REQUIRE_MESSAGE(r2.exit_code == 0, r2.err);
  for (const char* f : {"control.folded", "test.folded", "control.gpu.folded", "test.gpu.folded"})
    BOOST_TEST(read_file(dir + "/" + f) == read_file(again + "/" + f), f);
  std::filesystem::remove_all(out);
}

BOOST_AUTO_TEST_CASE(a_hostile_name_stays_one_frame_on_one_line) {
  // A name with the separator, a newline and a trailing " 12" (a count's look).
  const std::string name = "evil;frame\\nline 12";  // JSON text: the \\n is a newline
  const auto dir = temp_dir("folded-hostile");
  write_file(dir + "/c.json", trace_json({x_event("cpu_op", "outer", 1, 1, 0, 1000),
                                          x_event("cpu_op", name, 1, 1, 100, 500)}));
  std::filesystem::create_directories(dir + "/c");
  std::filesystem::rename(dir + "/c.json", dir + "/c/t.json");
  const auto r = run_cli({dir + "/c", dir + "/c", "--folded", dir + "/f", "-q"});
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto f = read_folded(dir + "/f/control.folded");
  BOOST_TEST(at(f, "outer;evil\\x3bframe\\nline 12") == 500.0);
  BOOST_TEST(at(f, "outer") == 500.0);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(frames_are_escaped_injectively) {
  using tracediff::output::folded_frame;
  BOOST_TEST(folded_frame("aten::mm") == "aten::mm");
  BOOST_TEST(folded_frame("a;b") == "a\\x3bb");
  BOOST_TEST(folded_frame("a\\x3bb") == "a\\\\x3bb");  // a name that reads like an escape stays apart
  BOOST_TEST(folded_frame("a\nb\rc") == "a\\nb\\rc");
  BOOST_TEST(folded_frame(std::string("x\xff", 2)) == "x\\xff");
}

BOOST_AUTO_TEST_CASE(hta_compat_has_no_call_tree_to_fold) {
  const auto r = run_cli({"a", "b", "--hta-compat", "--folded", "d"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("--folded") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
