// The call tree (issue #17): paths per side, matched by names, judged per node; GPU
// work under the call that launched it; recursion; the node budget; summaries and
// merge give the tree the traces give; findings folded along the tree.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <numeric>
#include <string_view>
#include <utility>
#include <string>
#include <vector>

#include "analysis/call_tree/call_tree.hpp"
#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

// The report's JSON of `tracediff C T`.

// The node at the end of a path of names (nullptr when there is none).
const json::object* find(const json::array& level, const std::vector<std::string>& path, std::size_t at = 0) {
  for (const auto& v : level) {
    const auto& n = v.as_object();
    if (n.at("name").as_string() != path[at]) continue;
    if (at + 1 == path.size()) return &n;
    return find(n.at("children").as_array(), path, at + 1);
  }
  return nullptr;
}

double num(const json::object& n, const char* side, const char* field) {
  return n.at(side).at(field).to_number<double>();
}

// Every node of a tree, visited with its path.
template <typename F>
void walk(const json::array& level, std::vector<std::string>& path, F&& f) {
  for (const auto& v : level) {
    const auto& n = v.as_object();
    path.emplace_back(n.at("name").as_string());
    f(n, path);
    walk(n.at("children").as_array(), path, f);
    path.pop_back();
  }
}

std::string dir_with(const std::string& tag, const std::string& trace) {
  const auto dir = temp_dir(tag);
  write_file(dir + "/t.json", trace);
  return dir;
}

}  // namespace

namespace {

// Text of the page as a reader gets it (the entities the HTML writer makes).
std::string unescape_html(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '&') {
      bool done = false;
      for (const auto& [e, c] : {std::pair<std::string_view, char>{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'},
                                 {"&quot;", '"'}, {"&#39;", '\''}})
        if (s.substr(i, e.size()) == e) {
          out += c;
          i += e.size() - 1;
          done = true;
          break;
        }
      if (done) continue;
    }
    out += s[i];
  }
  return out;
}

// The page's call-tree data (#tree-data, src/output/html/tree.cpp) widened as flame.js
// widens it: names that are rows of the table read from the row (label, title), each
// node [parent (-1: top level), name, flags, c, t, cs, ts, cg, tg, cn, tn, v, gv].
json::object tree_of_page(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"tree-data\">";
  const auto at = page.find(open);
  BOOST_REQUIRE(at != std::string::npos);
  const auto from = at + open.size();
  auto tree = parse_json(page.substr(from, page.find("</script>", from) - from)).as_object();
  json::array names;
  for (const auto& e : tree.at("names").as_array()) {
    if (!e.is_number()) {
      names.push_back(e);
      continue;
    }
    const auto row = page.find("<tr id=\"r" + std::to_string(e.to_number<std::int64_t>()) + "\"");
    BOOST_REQUIRE(row != std::string::npos);
    const auto td = page.find("<td class=\"nm\"", row);
    const auto gt = page.find('>', td);
    const auto open_title = page.find(" title=\"", td);
    const auto label = unescape_html(std::string_view(page).substr(gt + 1, page.find('<', gt) - gt - 1));
    json::array entry{json::value(label)};
    if (open_title < gt) {
      const auto b = open_title + 8;
      entry.emplace_back(unescape_html(std::string_view(page).substr(b, page.find('"', b) - b)));
    }
    names.push_back(std::move(entry));
  }
  json::array nodes;
  const auto& raw = tree.at("nodes").as_array();
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const auto& e = raw[i].as_array();
    const auto n = [&](std::size_t k) { return e.at(k).to_number<double>(); };
    const auto f = e.at(2).to_number<int>();
    std::size_t at_k = 9;
    const double c = n(3), t = n(4);
    double cs = c, ts = t, cg = 0, tg = 0;
    if (!(f & 4)) cs = n(at_k++), ts = n(at_k++);
    if (f & 8) cg = c, tg = t;
    else if (!(f & 16)) cg = n(at_k++), tg = n(at_k++);
    BOOST_TEST(at_k == e.size());
    const auto back = e.at(0).to_number<std::int64_t>();
    nodes.push_back(json::array{back > 0 ? static_cast<std::int64_t>(i) - back : -1, e.at(1), f, c, t, cs, ts, cg, tg,
                                e.at(5), e.at(6), e.at(7), e.at(8)});
  }
  tree["names"] = std::move(names);
  tree["nodes"] = std::move(nodes);
  return tree;
}

// The page's call-tree data of `tracediff C T`, widened.
json::object page_tree(const std::string& control, const std::string& test, const std::string& tag) {
  const auto html = temp_dir(tag) + "/r.html";
  BOOST_REQUIRE_EQUAL(run_cli({control, test, "-o", html, "-q"}).exit_code, 0);
  return tree_of_page(read_file(html));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(call_tree)

// A slowed call deep in a tree of Python frames: only layer 2's aten::addmm. The
// tree, the flame graph's data and the folded findings all point at it.
BOOST_AUTO_TEST_CASE(a_slowed_leaf_deep_in_the_tree_is_found_where_it_is) {
  const std::vector<std::string> common{"--python-stack", "--steps", "8", "--layers", "4", "--ranks", "1", "--jitter", "2"};
  auto slow = common;
  slow.insert(slow.end(), {"--slowdown-under", "nn.Module: Linear_2", "--slowdown", "aten::addmm=4"});
  const auto c = tracegen("tree-slow-c", common);
  const auto t = tracegen("tree-slow-t", slow);
  const auto j = report_json(c, t);

  // The findings: one regression, aten::addmm, called from layer 2; every caller of it
  // that moved as much is folded into it, not listed beside it.
  const auto& top = j.at("top_regressions").as_array();
  BOOST_REQUIRE_EQUAL(top.size(), 1u);
  BOOST_TEST(top[0].at("name").as_string() == "aten::addmm");
  std::vector<std::string> path;
  for (const auto& p : top[0].at("path").as_array()) path.emplace_back(p.as_string());
  BOOST_TEST((std::find(path.begin(), path.end(), "nn.Module: Linear_2") != path.end()));
  BOOST_TEST(path.back() == "aten::addmm");
  BOOST_TEST(j.at("top_counts").at("regressions").at("folded").to_number<int>() >= 3);

  // The tree: that path is slower; the same name under the other layers is not.
  const auto& tree = j.at("call_tree").at("top").as_array();
  const auto* slowed = find(tree, path);
  BOOST_REQUIRE(slowed);
  BOOST_TEST(slowed->at("verdict").as_string() == "slower");
  BOOST_TEST(num(*slowed, "test", "inclusive_us") > 2.5 * num(*slowed, "control", "inclusive_us"));
  int addmm_paths = 0;
  std::vector<std::string> at;
  walk(tree, at, [&](const json::object& n, const std::vector<std::string>& p) {
    if (n.at("name").as_string() != "aten::addmm" || p == path) return;
    ++addmm_paths;
    BOOST_TEST(n.at("verdict").as_string() != "slower", p.size());
  });
  BOOST_TEST(addmm_paths >= 3);  // layers 0, 1 and 3 (and the backward's, if any)

  // The flame graph's data in the page: the same node, with verdict 0 (slower).
  const auto html_dir = temp_dir("tree-slow-html");
  BOOST_REQUIRE(run_cli({c, t, "-o", html_dir + "/r.html", "-q"}).exit_code == 0);
  const auto html = read_file(html_dir + "/r.html");
  const auto data = tree_of_page(html);
  const auto& names = data.at("names").as_array();
  const auto& nodes = data.at("nodes").as_array();
  // Walk up from every aten::addmm node with verdict "slower": its path is the one found.
  int slower_addmm = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i].as_array();
    if (names[static_cast<std::size_t>(n[1].to_number<int>())].as_array()[0].as_string() != "aten::addmm") continue;
    if (n[11].to_number<int>() != 0) continue;
    ++slower_addmm;
    std::vector<std::string> up;
    for (auto k = static_cast<long>(i); k >= 0; k = nodes[static_cast<std::size_t>(k)].as_array()[0].to_number<long>())
      up.insert(up.begin(), std::string(names[static_cast<std::size_t>(nodes[static_cast<std::size_t>(k)].as_array()[1].to_number<int>())].as_array()[0].as_string()));
    BOOST_TEST((up == path));
  }
  BOOST_TEST(slower_addmm == 1);
}

// A GPU kernel launched under a nested operator hangs under its runtime call, with
// its GPU time counted in every caller's GPU time.
// What --top shows does not change what is counted: a row inside a caller that would be
// listed is folded whether or not the caller fits the list (--top 3 once counted 69
// significant regressions on HTA's pair and --top 100 41, in the verdict line too).
BOOST_AUTO_TEST_CASE(counts_do_not_depend_on_top) {
  const auto c = tracegen("top-c", {"--ranks", "1", "--steps", "6", "--layers", "1", "--jitter", "2", "--seed", "1"});
  const auto t = tracegen("top-t", {"--ranks", "1", "--steps", "6", "--layers", "1", "--jitter", "2", "--seed", "2",
                                    "--slowdown", "aten::=0.7", "--gpu-factor", "0.7"});
  std::string verdict;
  std::int64_t significant = -1, folded = -1;
  for (const char* top : {"2", "10", "1000"}) {
    const auto r = run_cli({c, t, "--top", top, "--json", "-", "-q"});
    BOOST_REQUIRE(r.exit_code == 0);
    const auto j = parse_json(r.out).as_object();
    const auto& counts = j.at("top_counts").at("improvements");
    const auto s = counts.at("significant").to_number<std::int64_t>(), f = counts.at("folded").to_number<std::int64_t>();
    const std::string v(j.at("verdict").at("line").as_string());
    if (significant < 0) significant = s, folded = f, verdict = v;
    BOOST_TEST(s == significant, "--top " << top);
    BOOST_TEST(f == folded, "--top " << top);
    BOOST_TEST(v == verdict, "--top " << top);
  }
  BOOST_TEST(significant > 10);  // more than the shorter lists show
  BOOST_TEST(folded > 0);
}

BOOST_AUTO_TEST_CASE(gpu_work_hangs_under_the_call_that_launched_it) {
  const auto trace = [](long kernel_us) {
    return trace_json({x_event("cpu_op", "outer", 1, 1, 0, 100), x_event("cpu_op", "inner", 1, 1, 10, 60),
                       x_event("cuda_runtime", "cudaLaunchKernel", 1, 1, 20, 5, 7),
                       "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm_kernel\",\"pid\":0,\"tid\":7,\"ts\":30,\"dur\":" +
                           std::to_string(kernel_us) + ",\"args\":{\"correlation\":7,\"device\":0,\"stream\":7}}"});
  };
  const auto j = report_json(dir_with("tree-gpu-c", trace(30)), dir_with("tree-gpu-t", trace(45)));
  const auto& tree = j.at("call_tree").at("top").as_array();
  const auto* kernel = find(tree, {"outer", "inner", "cudaLaunchKernel", "gemm_kernel"});
  BOOST_REQUIRE(kernel);
  BOOST_TEST(kernel->at("device").as_string() == "gpu");
  BOOST_TEST(num(*kernel, "control", "inclusive_us") == 30.0);
  BOOST_TEST(num(*kernel, "test", "inclusive_us") == 45.0);
  for (const auto& p : std::vector<std::vector<std::string>>{std::vector<std::string>{"outer"}, {"outer", "inner"},
                                           {"outer", "inner", "cudaLaunchKernel"}}) {
    const auto* n = find(tree, p);
    BOOST_REQUIRE(n);
    BOOST_TEST(num(*n, "control", "gpu_us") == 30.0, p.back());
    BOOST_TEST(num(*n, "test", "gpu_us") == 45.0, p.back());
    BOOST_TEST(n->at("gpu_diff_per_step_us").to_number<double>() == 15.0);
  }
  // Host time is host time: the kernel adds nothing to its callers' inclusive time.
  BOOST_TEST(num(*find(tree, {"outer"}), "test", "inclusive_us") == 100.0);
  BOOST_TEST(num(*find(tree, {"outer"}), "test", "self_us") == 40.0);
  BOOST_TEST(num(*find(tree, {"outer", "inner"}), "test", "self_us") == 55.0);
}

// Recursion nests a name in itself: one node per depth, each with its own time; the
// row counts the outermost only (inclusive as a union).
BOOST_AUTO_TEST_CASE(recursion_is_a_path_per_depth) {
  const auto dir = dir_with("tree-rec", trace_json({x_event("python_function", "f", 1, 1, 0, 100),
                                                    x_event("python_function", "f", 1, 1, 10, 80),
                                                    x_event("python_function", "f", 1, 1, 20, 60),
                                                    x_event("cpu_op", "aten::add", 1, 1, 30, 10)}));
  const auto j = report_json(dir, dir);
  const auto& tree = j.at("call_tree").at("top").as_array();
  const double incl[] = {100, 80, 60}, self[] = {20, 20, 50};
  std::vector<std::string> p;
  for (int d = 0; d < 3; ++d) {
    p.push_back("f");
    const auto* n = find(tree, p);
    BOOST_REQUIRE(n);
    BOOST_TEST(num(*n, "control", "inclusive_us") == incl[d]);
    BOOST_TEST(num(*n, "control", "self_us") == self[d]);
    BOOST_TEST(num(*n, "control", "count_per_step") == 1.0);
  }
  p.push_back("aten::add");
  BOOST_REQUIRE(find(tree, p));
  for (const auto& row : j.at("rows").as_array())
    if (row.at("name").as_string() == "f") BOOST_TEST(row.at("control_total_us").to_number<double>() == 100.0);
}

// Paths end at k_tree_depth: a recursion 1,000 deep nests 200 levels in the JSON.
BOOST_AUTO_TEST_CASE(paths_end_at_the_depth_limit) {
  std::vector<std::string> e;
  for (int d = 0; d < 1000; ++d) e.push_back(x_event("python_function", "f", 1, 1, d, 2000 - 2 * d));
  const auto dir = dir_with("tree-deep", trace_json(e));
  const auto j = report_json(dir, dir);
  std::size_t deepest = 0;
  const json::object* last = nullptr;
  std::vector<std::string> at;
  walk(j.at("call_tree").at("top").as_array(), at, [&](const json::object& n, const std::vector<std::string>& p) {
    if (p.size() > deepest) deepest = p.size(), last = &n;
  });
  BOOST_TEST(deepest == tracediff::model::k_tree_depth);
  // The calls below are part of it: its self time is all of its time (1,602 µs).
  BOOST_REQUIRE(last);
  BOOST_TEST(num(*last, "control", "inclusive_us") == 1602.0);
  BOOST_TEST(num(*last, "control", "self_us") == 1602.0);
}

// Past the node budget the smallest subtrees are folded into "(other)" under their
// parent, their time kept; the report says so.
BOOST_AUTO_TEST_CASE(the_node_budget_folds_the_smallest_subtrees) {
  namespace m = tracediff::model;
  m::FileSummary s;
  s.events = 1'000'000;
  s.steps.resize(2);
  s.keys.push_back({"cpu_op", "parent", m::Kind::cpu_op});
  s.tree.push_back({m::k_tree_top, 0});
  std::int64_t self_before = 0;
  for (std::uint32_t i = 0; i < 300; ++i) {
    s.keys.push_back({"cpu_op", "op_" + std::to_string(i), m::Kind::cpu_op});
    s.keys.push_back({"kernel", "kernel_" + std::to_string(i), m::Kind::kernel});
    const auto op = static_cast<std::uint32_t>(s.tree.size());
    s.tree.push_back({0, static_cast<std::uint32_t>(s.keys.size() - 2)});
    s.tree.push_back({op, static_cast<std::uint32_t>(s.keys.size() - 1)});
    for (std::uint32_t step = 0; step < 2; ++step) {
      s.tree_cells.push_back({op, step, 1, 1000 + i, 500 + i});  // op i weighs 1000 + i (+ its kernel)
      s.tree_cells.push_back({op + 1, step, 1, 10, 10});
      self_before += 500 + i + 10;
    }
  }
  s.tree_cells.push_back({0, 0, 1, 1'000'000, 1000});
  self_before += 1000;
  tracediff::analysis::fold_tree(s, 101);
  BOOST_TEST(s.tree.size() <= 101u);
  BOOST_TEST(s.tree_folded > 0u);
  std::int64_t self_after = 0, other_total = 0;
  std::uint64_t other_count = 0;
  std::size_t others = 0, other_gpu = 0;
  for (const auto& c : s.tree_cells) {
    self_after += c.self_ns;
    if (s.tree[c.node].key == m::k_tree_other) other_total += c.total_ns, other_count += c.count;
  }
  for (const auto& n : s.tree) {
    others += n.key == m::k_tree_other;
    other_gpu += n.key == m::k_tree_other_gpu;
    BOOST_TEST((n.parent == m::k_tree_top || n.parent < s.tree.size()));
  }
  BOOST_TEST(self_after == self_before);  // no time lost
  BOOST_TEST(others == 1u);               // one "(other)" under the parent
  BOOST_TEST(other_gpu == 1u);            // and one for the GPU work of the folded calls
  // The kept ops are the heaviest: the folded ones are 0 .. k-1, whose totals add up.
  std::vector<std::uint32_t> kept;
  for (const auto& n : s.tree)
    if (n.key != m::k_tree_other && n.key != m::k_tree_other_gpu && s.keys[n.key].kind == m::Kind::cpu_op && n.key)
      kept.push_back(std::stoul(s.keys[n.key].name.substr(3)));
  BOOST_REQUIRE(!kept.empty());
  const auto lightest_kept = *std::min_element(kept.begin(), kept.end());
  std::int64_t expect = 0;
  for (std::uint32_t i = 0; i < lightest_kept; ++i) expect += 2 * (1000 + i);
  BOOST_TEST(other_total == expect);
  BOOST_TEST(other_count == 2u * lightest_kept);
  BOOST_TEST(kept.size() == 300u - lightest_kept);
}

BOOST_AUTO_TEST_CASE(a_side_past_the_budget_is_folded_and_says_so) {
  // 60,000 operators, most with a runtime call and a kernel: over 120,000 paths a file.
  const auto c = tracegen("tree-many-c", {"--ranks", "1", "--steps", "2", "--many-names", "60000"});
  const auto j = report_json(c, c);
  const auto& t = j.at("call_tree").as_object();
  BOOST_TEST(t.at("control_folded").to_number<std::uint64_t>() > 50'000u);
  BOOST_TEST(t.at("nodes").to_number<std::size_t>() <= tracediff::analysis::k_tree_budget);
  bool noted = false;
  for (const auto& n : j.at("notes").as_array()) noted = noted || n.as_string().find("(other)") != json::string::npos;
  BOOST_TEST(noted);
}

// Summaries carry the tree: comparing them, or a merge of per-rank summaries, gives
// the tree comparing the traces gives.
BOOST_AUTO_TEST_CASE(summaries_and_merge_give_the_same_tree) {
  const auto c = tracegen("tree-sum-c", {"--python-stack", "--ranks", "2", "--steps", "3"});
  const auto t = tracegen("tree-sum-t", {"--python-stack", "--ranks", "2", "--steps", "3", "--slowdown", "aten::mm=2"});
  const auto dir = temp_dir("tree-sum");
  BOOST_REQUIRE(run_cli({"summarize", c, "-o", dir + "/c.tdsum.json", "-q"}).exit_code == 0);
  BOOST_REQUIRE(run_cli({"summarize", t, "-o", dir + "/t.tdsum.json", "-q"}).exit_code == 0);
  for (int rank : {0, 1}) {
    const auto one = temp_dir("tree-sum-r" + std::to_string(rank));
    BOOST_REQUIRE(std::system(("cp '" + t + "/rank" + std::to_string(rank) + ".pt.trace.json' '" + one + "/'").c_str()) == 0);
    BOOST_REQUIRE(run_cli({"summarize", one, "-o", dir + "/t" + std::to_string(rank) + ".tdsum.json", "-q"}).exit_code == 0);
  }
  BOOST_REQUIRE(run_cli({"merge", dir + "/t0.tdsum.json", dir + "/t1.tdsum.json", "-o", dir + "/tm.tdsum.json"})
                    .exit_code == 0);
  const auto from_traces = report_json(c, t).at("call_tree");
  BOOST_TEST(from_traces.at("nodes").to_number<int>() > 100);
  BOOST_TEST((report_json(dir + "/c.tdsum.json", dir + "/t.tdsum.json").at("call_tree") == from_traces));
  BOOST_TEST((report_json(dir + "/c.tdsum.json", dir + "/tm.tdsum.json").at("call_tree") == from_traces));
}


// Work that one side no longer does: a data loader on the main thread on control only,
// one step a side (nothing testable, as across vendors). It keeps its place and width:
// siblings are widest first by the larger side, so it leads the top level, and the page
// has it with its time on control (issue #25).
BOOST_AUTO_TEST_CASE(work_that_left_leads_and_keeps_its_width) {
  const std::vector<std::string> common{"--steps", "1", "--layers", "2", "--ranks", "1"};
  auto with = common;
  with.insert(with.end(), {"--loader-on-main", "40"});
  const auto c = tracegen("tree-loader-c", with);
  const auto t = tracegen("tree-loader-t", common);
  const std::string loader = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";

  const auto j = report_json(c, t);
  const auto& top = j.at("call_tree").at("top").as_array();
  BOOST_REQUIRE(!top.empty());
  BOOST_TEST(top[0].at("name").as_string() == loader);
  BOOST_TEST(num(top[0].as_object(), "control", "inclusive_us") > 35000);
  BOOST_TEST(num(top[0].as_object(), "test", "inclusive_us") == 0);
  BOOST_TEST(top[0].at("verdict").as_string() == "untestable");
  // Every level widest first: the larger side's time (a GPU node's is its GPU time).
  const auto width = [](const json::value& v) {
    const auto& n = v.as_object();
    return std::max(num(n, "control", "inclusive_us"), num(n, "test", "inclusive_us"));
  };
  std::size_t out_of_order = 0;
  const auto ordered = [&](const json::array& level) {
    for (std::size_t k = 1; k < level.size(); ++k) out_of_order += width(level[k]) > width(level[k - 1]) + 0.0015;
  };
  ordered(top);
  std::vector<std::string> path;
  walk(top, path, [&](const json::object& n, const std::vector<std::string>&) { ordered(n.at("children").as_array()); });
  BOOST_TEST(out_of_order == 0u);

  // The page: the loader and its children, with control's time and none on test, not
  // testable (flame.js colours it by the raw change, hatched; tests/browser checks that).
  const auto page = page_tree(c, t, "tree-loader-page");
  const auto& names = page.at("names").as_array();
  std::size_t found = 0;
  for (const auto& v : page.at("nodes").as_array()) {
    const auto& n = v.as_array();
    if (names[static_cast<std::size_t>(n[1].to_number<std::int64_t>())].as_array()[0].as_string() != loader) continue;
    ++found;
    BOOST_TEST(n[0].to_number<std::int64_t>() == -1);  // top level
    BOOST_TEST(n[3].to_number<double>() > 35e6);       // ns per step on control
    BOOST_TEST(n[4].to_number<double>() == 0);
    BOOST_TEST(n[11].to_number<int>() == 3);           // not testable
  }
  BOOST_TEST(found == 1u);
  BOOST_TEST(page.at("nodes").as_array()[0].as_array()[0].to_number<int>() == -1);
}

// The JSON's call tree is the page's by default (the paths analysis chose to embed, each
// with its ancestors), with a count of the rest; --json-full-tree writes every path.
BOOST_AUTO_TEST_CASE(the_json_tree_is_bounded_as_the_page_unless_asked_for_all) {
  const std::vector<std::string> common{"--steps", "2", "--layers", "1", "--ranks", "1", "--many-names", "5000"};
  auto other = common;
  other.insert(other.end(), {"--seed", "2"});
  const auto c = tracegen("tree-bound-c", common);
  const auto t = tracegen("tree-bound-t", other);
  const auto count = [](const json::object& tree) {
    std::size_t n = 0;
    std::vector<std::string> path;
    walk(tree.at("top").as_array(), path, [&](const json::object&, const std::vector<std::string>&) { ++n; });
    return n;
  };
  const auto bounded = report_json(c, t).at("call_tree").as_object();
  const auto nodes = bounded.at("nodes").to_number<std::size_t>();
  const auto shown = bounded.at("shown").to_number<std::size_t>();
  BOOST_TEST(nodes > 6000u);
  BOOST_TEST(shown <= 4100u);
  BOOST_TEST(count(bounded) == shown);
  BOOST_TEST(bounded.at("left_out").to_number<std::size_t>() == nodes - shown);
  const auto page = page_tree(c, t, "tree-bound-page");
  BOOST_TEST(page.at("nodes").as_array().size() == shown);
  BOOST_TEST(page.at("left_out").to_number<std::size_t>() == nodes - shown);

  const auto full = report_json(c, t, {"--json-full-tree"}).at("call_tree").as_object();
  BOOST_TEST(full.at("shown").to_number<std::size_t>() == nodes);
  BOOST_TEST(full.at("left_out").to_number<std::size_t>() == 0u);
  BOOST_TEST(count(full) == nodes);
  // Without --json there is nothing to write it to.
  BOOST_TEST(run_cli({c, t, "--json-full-tree", "--csv", "-"}).exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
