// The top lists and the charts as analysis decides them (analysis/decide/top_lists.cpp,
// embedded.cpp): the share of a row's change its path carries is a number in [0, 1], or
// none without a path; each charted row has its label.
#include <boost/test/unit_test.hpp>

#include <set>

#include "analysis/decide/embedded.hpp"
#include "analysis/decide/top_lists.hpp"
#include "util/utf8.hpp"
#include "support/report_support.hpp"

using namespace tracediff;

namespace {

// A call-tree node whose time moved by diff_ns per step.
model::CallNode node(const std::string& name, double diff_ns) {
  model::CallNode n;
  n.name = name;
  n.time.control = 1'000'000;
  n.time.test = 1'000'000 + diff_ns;
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(top_list_paths)

BOOST_AUTO_TEST_CASE(path_share_is_a_share_of_the_change) {
  auto r = test::six_step_report(10'000'000, 11'000'000);
  // Four slower rows, largest first: their paths carry half, twice, the opposite of and
  // none of their change, and the last has no path at all.
  const double diffs[] = {400'000, 300'000, 200'000, 100'000};
  const double node_diffs[] = {200'000, 600'000, -100'000};
  for (std::size_t i = 0; i < 4; ++i) {
    r.rows.push_back(test::steady_row("op" + std::to_string(i), model::Device::cpu, 1'000'000, 1'000'000 + diffs[i], 4));
    if (i < 3) {
      r.rows.back().tree_node = static_cast<std::uint32_t>(i);
      r.call_tree.nodes.push_back(node("op" + std::to_string(i), node_diffs[i]));
      r.call_tree.nodes.back().row = i;
      r.call_tree.top.push_back(static_cast<std::uint32_t>(i));
    }
  }
  const auto list = analysis::detail::top_list(r, true, 10);
  BOOST_REQUIRE_EQUAL(list.rows.size(), 4u);
  BOOST_REQUIRE_EQUAL(list.path_shares.size(), 4u);
  BOOST_TEST(list.path_shares[0].value_or(-1) == 0.5, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(list.path_shares[1].value_or(-1) == 1.0);  // twice the row's change: all of it
  BOOST_TEST(list.path_shares[2].value_or(-1) == 0.0);  // the other way: none of it
  BOOST_TEST(!list.path_shares[3].has_value());         // no path
  BOOST_TEST(list.path_words[0] == "50 % in");
  BOOST_TEST(list.path_words[1] == "in");
  BOOST_TEST(list.path_words[2] == "");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(chart_labels)

// The charts' labels are analysis's: one per charted row, distinct, at most an axis wide.
BOOST_AUTO_TEST_CASE(one_distinct_label_per_charted_row) {
  auto r = test::six_step_report(10'000'000, 11'000'000);
  const std::string longer(80, 'x');
  for (int i = 0; i < 6; ++i)
    r.rows.push_back(test::steady_row(longer + std::to_string(i), model::Device::cpu, 1'000'000, 1'000'000 + 1'000 * (i + 1), 4));
  analysis::detail::decide_embedded(r, 10);
  const auto& c = r.charts;
  BOOST_REQUIRE_EQUAL(c.time.size(), 6u);
  BOOST_REQUIRE_EQUAL(c.time_labels.size(), c.time.size());
  BOOST_REQUIRE_EQUAL(c.calls_labels.size(), c.calls.size());
  BOOST_REQUIRE_EQUAL(c.self_labels.size(), c.self.size());
  std::set<std::string> seen(c.time_labels.begin(), c.time_labels.end());
  BOOST_TEST(seen.size() == c.time_labels.size());
  for (std::size_t k = 0; k < c.time.size(); ++k) {
    BOOST_TEST(tracediff::display_width(c.time_labels[k]) <= model::k_chart_label_chars);
    BOOST_TEST(c.time_labels[k].back() == r.rows[c.time[k]].name.back());  // the part that tells them apart
  }
}

BOOST_AUTO_TEST_SUITE_END()
