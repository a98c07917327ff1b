// The PR comment's first line (analysis::verdict_line) and what the Markdown opens
// with: the verdict, the commits, the link to the full report; numbers before names.
// Also the labels that CI variables give, and --report-url's checks.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <map>
#include <sstream>

#include "analysis/decide.hpp"
#include "analysis/gate.hpp"
#include "analysis/verdict.hpp"
#include "cli/options.hpp"
#include "output/human_writers.hpp"
#include "support/report_support.hpp"
#include "support/sanitize_support.hpp"
#include "support/test_support.hpp"
#include "util/errors.hpp"

using namespace tracediff;

namespace {

// The tests that run the binary compare labels with "Control" and "Test": a CI
// runner's own commit must not become one.
struct NoCiCommit {
  NoCiCommit() {
    for (const char* v : {"GITHUB_SHA", "CI_COMMIT_SHORT_SHA", "CI_MERGE_REQUEST_DIFF_BASE_SHA"}) ::unsetenv(v);
  }
};

model::DiffReport decided(std::int64_t control_step, std::int64_t test_step,
                          const std::vector<std::pair<double, double>>& rows) {
  auto r = test::six_step_report(control_step, test_step, 50'000'000, 51'000'000);
  int k = 0;
  for (auto [c, t] : rows) r.rows.push_back(test::steady_row("op_" + std::to_string(k++), model::Device::cpu, c, t, 4));
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    r.by_impact.push_back(i);
    r.ops_diff.groups[static_cast<int>(r.rows[i].change)].push_back(r.rows[i].name);
  }
  analysis::CompareOptions o;
  analysis::detail::decide(r, o);
  r.verdict_line = analysis::verdict_line(r);
  return r;
}

std::string markdown(const model::DiffReport& r, output::MarkdownOptions o = {}) {
  std::ostringstream out;
  output::write_markdown(r, o, out);
  return out.str();
}

std::map<std::string, std::string> g_env;
const char* fake_env(const char* name) {
  const auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(NoCiCommit);

BOOST_AUTO_TEST_SUITE(verdict)

BOOST_AUTO_TEST_CASE(regressions_are_counted_with_the_step_time) {
  const auto r = decided(77'500'000, 124'000'000, {{1e6, 2e6}, {1e6, 1.5e6}, {3e6, 4e6}, {1e6, 1e6}, {2e6, 1e6}});
  BOOST_TEST(r.verdict_line ==
                 "\xE2\x9D\x8C 3 significant regressions: step time +60.0% (77.5 ms \xE2\x86\x92 124 ms)",
             r.verdict_line);
  const auto md = markdown(r);
  BOOST_TEST(md.rfind("<!-- tracediff-report -->\n### \xE2\x9D\x8C 3 significant regressions: step time +60.0%", 0) == 0,
             md);
  BOOST_TEST(md.find("tracediff: **Control** \xE2\x86\x92 **Test**\n") != std::string::npos, md);
  // Numbers first, the name after them.
  BOOST_TEST(md.find("| \xCE\x94% | \xCE\x94 | Control | Test | Name | Device | Called from |") != std::string::npos, md);
  BOOST_TEST(md.find("| +100.0% \xE2\x96\xB2 | +1.00 ms | 1.00 ms | 2.00 ms | `op_0` | cpu |") != std::string::npos, md);
  // Only significant rows: op_3 did not move.
  BOOST_TEST(md.find("`op_3`") == std::string::npos, md);
}

BOOST_AUTO_TEST_CASE(no_change_says_how_many_were_compared) {
  const auto r = decided(77'500'000, 77'500'000, {{1e6, 1e6}, {2e6, 2e6}, {3e6, 3e6}});
  BOOST_TEST(r.verdict_line == "\xE2\x9C\x85 No significant change in 3 operators and kernels", r.verdict_line);
}

BOOST_AUTO_TEST_CASE(improvements_and_a_failed_gate) {
  auto r = decided(80'000'000, 60'000'000, {{2e6, 1e6}});
  BOOST_TEST(r.verdict_line.rfind("\xE2\x9C\x85 1 significant improvement: step time -25.0%", 0) == 0, r.verdict_line);
  r.gate = analysis::evaluate_gate({analysis::parse_gate_condition("step_time<-10%"),
                                    analysis::parse_gate_condition("added>0")},
                                   r);
  r.verdict_line = analysis::verdict_line(r);
  BOOST_TEST(r.verdict_line.rfind("\xE2\x9D\x8C Gate failed (1 of 2 conditions): step time -25.0%", 0) == 0,
             r.verdict_line);
}

BOOST_AUTO_TEST_CASE(report_url_is_linked_and_escaped) {
  const auto r = decided(77'500'000, 124'000'000, {{1e6, 2e6}});
  output::MarkdownOptions o;
  o.report_url = "https://ci.example.com/run/1?a=(b)&c=[d]<e>|`f`";
  const auto md = markdown(r, o);
  BOOST_TEST(md.find(" \xC2\xB7 [Full report](https://ci.example.com/run/1?a=%28b%29&c=%5Bd%5D%3Ce%3E%7C%60f%60)\n") !=
                 std::string::npos,
             md);
  BOOST_TEST(md.size() <= o.max_bytes);
  // GitHub's renderer sees one link, to that URL, and nothing else (when cmark-gfm is here).
  if (const auto html = test::render_gfm(md)) {
    const auto first = html->find("<a ");
    BOOST_TEST(first != std::string::npos, *html);
    BOOST_TEST(html->find("<a ", first + 1) == std::string::npos, *html);
    BOOST_TEST(html->find("href=\"https://ci.example.com/run/1?a=%28b%29&amp;c=%5Bd%5D%3Ce%3E%7C%60f%60\"") !=
                   std::string::npos,
               *html);
  }
}

BOOST_AUTO_TEST_CASE(report_url_must_be_http) {
  for (const char* ok : {"https://x.example/r.html", "http://localhost:8000/", "HTTPS://X.example"})
    BOOST_CHECK_NO_THROW(cli::check_report_url(ok));
  for (std::string bad : {"javascript:alert(1)", "file:///etc/passwd", "https://", "https:///path", "ftp://x",
                          "https://x/a b", "https://x/\x1b[2J", "https://x/\xC3\xA9", "data:text/html,x"})
    BOOST_CHECK_THROW(cli::check_report_url(bad), UsageError);
  BOOST_CHECK_THROW(cli::check_report_url("https://x/" + std::string(3000, 'a')), UsageError);
  // The binary: a usage error (exit 2) before anything is read.
  const auto r = test::run_cli({"/nonexistent/a", "/nonexistent/b", "--markdown", "-", "--report-url", "javascript:alert(1)"});
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("--report-url: only http:// and https:// URLs are linked") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(labels_default_from_ci_commits) {
  cli::Options o;
  g_env = {{"GITHUB_SHA", "0123456789abcdef0123456789abcdef01234567"}};
  cli::default_labels_from_ci(o, fake_env);
  BOOST_TEST(o.label_test == "0123456");
  BOOST_TEST(o.label_control == "Control");

  o = {};
  g_env = {{"CI_COMMIT_SHORT_SHA", "89abcde"}, {"CI_MERGE_REQUEST_DIFF_BASE_SHA", "fedcba9876543210"}};
  cli::default_labels_from_ci(o, fake_env);
  BOOST_TEST(o.label_test == "89abcde");
  BOOST_TEST(o.label_control == "fedcba9");

  // Not a hash: ignored (a label never comes from arbitrary environment text).
  o = {};
  g_env = {{"GITHUB_SHA", "\x1b]52;c;evil\x07"}, {"CI_COMMIT_SHORT_SHA", "abc"}};
  cli::default_labels_from_ci(o, fake_env);
  BOOST_TEST(o.label_test == "Test");

  // Given labels win; the binary reads GITHUB_SHA only when no --label-* is given.
  const char* argv[] = {"tracediff", "a", "b", "--label-test", "PR"};
  ::setenv("GITHUB_SHA", "0123456789abcdef", 1);
  cli::Options parsed;
  cli::parse_options(5, argv, parsed);
  BOOST_TEST(parsed.label_test == "PR");
  BOOST_TEST(parsed.label_control == "Control");
  const char* bare[] = {"tracediff", "a", "b"};
  cli::Options from_ci;
  cli::parse_options(3, bare, from_ci);
  BOOST_TEST(from_ci.label_test == "0123456");
  ::unsetenv("GITHUB_SHA");
}

BOOST_AUTO_TEST_SUITE_END()
