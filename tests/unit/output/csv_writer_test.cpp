// The diff table as CSV (output/csv_writer.cpp), parsed as RFC 4180: the header, one
// line per row with the report's figures, HTA's layout with --hta-compat.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <sstream>
#include <string>

#include "output/writers.hpp"
#include "support/pair_support.hpp"
#include "support/test_support.hpp"

using namespace tracediff;

namespace {

std::vector<std::vector<std::string>> csv_of(const model::DiffReport& r) {
  std::ostringstream out;
  output::write_csv(r, out);
  return test::parse_csv(out.str());
}

// Row `name`'s cell under `column`.
std::string cell(const std::vector<std::vector<std::string>>& t, const std::string& name, const std::string& column) {
  const auto& h = t.at(0);
  const auto col = std::find(h.begin(), h.end(), column) - h.begin();
  BOOST_REQUIRE(col < static_cast<long>(h.size()));
  for (std::size_t i = 1; i < t.size(); ++i)
    if (t[i].at(0) == name) return t[i].at(col);
  BOOST_FAIL("no row " + name);
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(csv_writer)

BOOST_AUTO_TEST_CASE(one_line_per_row_every_line_as_wide_as_the_header) {
  const auto r = test::compare_pair(test::steps_trace({{"aten::mm", 100, "gemm", 50}}),
                                    test::steps_trace({{"aten::mm", 150, "gemm", 50}}));
  const auto t = csv_of(r);
  BOOST_REQUIRE(t.size() == r.rows.size() + 1);
  BOOST_TEST(t[0].at(0) == "name");
  for (const auto& line : t) BOOST_TEST(line.size() == t[0].size());
}

BOOST_AUTO_TEST_CASE(cells_hold_the_rows_figures) {
  const auto t = csv_of(test::compare_pair(test::steps_trace({{"aten::mm", 100}}), test::steps_trace({{"aten::mm", 150}})));
  BOOST_TEST(cell(t, "aten::mm", "control_count") == "6");
  BOOST_TEST(std::stod(cell(t, "aten::mm", "control_per_step_us")) == 102.5);
  BOOST_TEST(std::stod(cell(t, "aten::mm", "diff_per_step_us")) == 50.0);
  BOOST_TEST(cell(t, "aten::mm", "verdict") == "slower");
  BOOST_TEST(cell(t, "aten::mm", "significant") == "true");
}

BOOST_AUTO_TEST_CASE(hta_compat_has_htas_columns) {
  analysis::CompareOptions o;
  o.hta_compat = true;
  const auto t = csv_of(test::compare_pair(test::steps_trace({{"aten::mm", 100}}),
                                           test::steps_trace({{"aten::mm", 150}, {"aten::new", 5}}), o));
  BOOST_TEST(t.at(0) == (std::vector<std::string>{"name", "Control_counts", "Control_total_duration", "Test_counts",
                                                  "Test_total_duration", "diff_counts", "diff_duration",
                                                  "counts_change_categories"}));
  BOOST_TEST(std::stod(cell(t, "aten::mm", "diff_duration")) == 50.0);
  BOOST_TEST(cell(t, "aten::new", "counts_change_categories") == "+");
}

BOOST_AUTO_TEST_SUITE_END()
