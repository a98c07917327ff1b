// A comparison far bigger than a page can hold, through the CLI: 100,000 distinct
// names a side (tracegen --many-names). The HTML report embeds 2,000 rows, says how
// many it left out and where they are; the CSV has every row; the time grows with
// the input, not its square. The page in Chromium: scripts/browser-test.sh.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <regex>
#include <string>

#include "support/test_support.hpp"

using namespace tracediff::test;

namespace {

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + needle.size())) ++n;
  return n;
}

long number(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  return std::stol(s);
}

// Seconds tracediff takes on a pair of N names a side, writing OUT.html and OUT.csv.
double compare(const std::string& names, const std::string& out) {
  const auto c = tracegen("big-c-" + names, {"--ranks", "1", "--steps", "5", "--gzip", "--many-names", names});
  const auto t = tracegen("big-t-" + names, {"--ranks", "1", "--steps", "5", "--gzip", "--many-names", names,
                                             "--many-names-from", "5000", "--seed", "2", "--slowdown", "addmm=1.3"});
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_cli({c, t, "-o", out + ".html", "--csv", out + ".csv", "-q"});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(big_report)

BOOST_AUTO_TEST_CASE(a_hundred_thousand_names_a_side_make_a_page_that_says_what_it_left_out) {
  const auto dir = temp_dir("big-report");
  const double small = compare("10000", dir + "/small");
  const double big = compare("100000", dir + "/big");
  BOOST_TEST_MESSAGE("tracediff: 10,000 names a side " << small << " s, 100,000 names a side " << big << " s");
  // A quadratic pass would take 100 times as long; n log n about 12.
  BOOST_TEST(big < 25 * small + 1.0);

  const auto html = read_file(dir + "/big.html");
  BOOST_TEST(html.size() < 10'000'000u);
  BOOST_TEST(count(html, "<tr id=\"r") == 2000u);
  // "Operators (the 2,000 with the most impact of 110,074 rows, ...)" and the notice.
  std::smatch heading, notice;
  BOOST_REQUIRE(std::regex_search(html, heading, std::regex("the 2,000 with the most impact of ([0-9,]+) rows")));
  BOOST_REQUIRE(std::regex_search(html, notice, std::regex("<strong>([0-9,]+) rows left out</strong>")));
  const long all = number(heading[1]);
  BOOST_TEST(all > 100'000);
  BOOST_TEST(number(notice[1]) == all - 2000);
  BOOST_TEST(html.find("<code>--csv FILE</code>, <code>--json FILE</code>") != std::string::npos);
  // Every row is in the CSV.
  const auto csv = parse_csv(read_file(dir + "/big.csv"));
  BOOST_TEST(static_cast<long>(csv.size()) == all + 1);  // and the header
}

BOOST_AUTO_TEST_SUITE_END()
