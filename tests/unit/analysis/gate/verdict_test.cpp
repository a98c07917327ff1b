// The PR comment's first line (analysis::verdict_line) and what the Markdown opens
// with: the verdict, the commits, the link to the full report; numbers before names.
// Also the labels that CI variables give, and --report-url's checks.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <map>
#include <sstream>

#include "analysis/decide/decide.hpp"
#include "analysis/gate/gate.hpp"
#include "analysis/gate/verdict.hpp"
#include "cli/options.hpp"
#include "output/html_writer.hpp"
#include "output/human_writers.hpp"
#include "output/writers.hpp"
#include "util/escape.hpp"
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

// A decided report: the step time control -> test over `units` steps a side (fewer
// than 3: not testable), with rows of these per-step times.
model::DiffReport decided(std::int64_t control_step, std::int64_t test_step,
                          const std::vector<std::pair<double, double>>& rows, std::size_t units = 6) {
  auto r = test::six_step_report(control_step, test_step, 50'000'000, 51'000'000);
  for (auto* side : {&r.control, &r.test}) {
    side->step_details.resize(units);
    side->step_times.steps.resize(units);
    side->units = units;
  }
  int k = 0;
  for (auto [c, t] : rows) {
    auto row = test::steady_row("op_" + std::to_string(k++), model::Device::cpu, c, t, 4);
    if (units < 3 && c != t) row.significant = false, row.verdict = model::Verdict::untestable;
    r.rows.push_back(row);
  }
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    r.by_impact.push_back(i);
    r.ops_diff.groups[static_cast<int>(r.rows[i].change)].push_back(r.rows[i].name);
  }
  analysis::CompareOptions o;
  analysis::detail::decide(r, o);
  const auto v = analysis::decide_verdict(r);
  r.verdict_line = v.line;
  r.verdict_mark = v.mark;
  r.verdict_text = v.text;
  return r;
}

// The gate evaluated and the verdict decided again, as the CLI does.
void gate(model::DiffReport& r, const std::vector<std::string>& conditions) {
  std::vector<model::GateCondition> parsed;
  for (const auto& c : conditions) parsed.push_back(analysis::parse_gate_condition(c));
  r.gate = analysis::evaluate_gate(parsed, r);
  r.gate_heading = analysis::gate_heading(r.gate);
  const auto v = analysis::decide_verdict(r);
  r.verdict_line = v.line;
  r.verdict_mark = v.mark;
  r.verdict_text = v.text;
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
  BOOST_TEST(r.verdict_line == "\xE2\x9D\x8C Step time +60.0% (77.5 ms \xE2\x86\x92 124 ms), slower (within one run: run-to-run noise not measured); "
                               "3 significant regressions, 1 improvement",
             r.verdict_line);
  BOOST_TEST(std::string(model::mark_name(r.verdict_mark)) == "fail");
  const auto md = markdown(r);
  BOOST_TEST(md.rfind("<!-- tracediff-report -->\n### \xE2\x9D\x8C Step time +60.0%", 0) == 0, md);
  BOOST_TEST(md.find("tracediff: **Control** \xE2\x86\x92 **Test**\n") != std::string::npos, md);
  // Numbers first, the name after them; calls per step and the change per call.
  BOOST_TEST(md.find("| \xCE\x94% | \xCE\x94 | Control | Test | Calls | Per call | Name | Device | Called from |") !=
                 std::string::npos,
             md);
  BOOST_TEST(md.find("| +100.0% \xE2\x96\xB2 | +1.00 ms | 1.00 ms | 2.01 ms | 4 |  | `op_0` | cpu |") !=
                 std::string::npos,
             md);
  // Only significant rows: op_3 did not move.
  BOOST_TEST(md.find("`op_3`") == std::string::npos, md);
}

BOOST_AUTO_TEST_CASE(a_faster_step_is_never_red) {
  // Step time 17 % faster but within noise (one slow step on the test side), rows that moved
  // both ways: the line opens neutral, with the step time first, never a red mark.
  auto r = decided(45'000'000, 37'000'000, {{1e6, 2e6}, {1e6, 1.5e6}, {3e6, 1e6}});
  r.test.step_details[5].dur_ns = 90'000'000;
  r.headline.clear(), r.breakdown.clear(), r.notes.clear(), r.rank_rows.clear(), r.sides_differ.clear(),
      r.top_launchers.clear();
  analysis::detail::decide(r, analysis::CompareOptions{});
  const auto v = analysis::decide_verdict(r);
  BOOST_TEST(std::string(model::mark_name(v.mark)) == "neutral");
  BOOST_TEST(v.line.rfind("\xE2\x9A\xAA Step time ", 0) == 0, v.line);
  BOOST_TEST(v.line.find("same within noise; 2 significant regressions, 1 improvement") != std::string::npos, v.line);
}

BOOST_AUTO_TEST_CASE(no_change_says_so) {
  const auto r = decided(77'500'000, 77'500'000, {{1e6, 1e6}, {2e6, 2e6}, {3e6, 3e6}});
  BOOST_TEST(r.verdict_line == "\xE2\x9A\xAA Step time 0.0% (77.5 ms \xE2\x86\x92 77.5 ms), same within noise; "
                               "no significant change in operators and kernels",
             r.verdict_line);
}

BOOST_AUTO_TEST_CASE(improvements_and_a_failed_gate) {
  auto r = decided(80'000'000, 60'000'000, {{2e6, 1e6}});
  BOOST_TEST(r.verdict_line.rfind("\xE2\x9C\x85 Step time -25.0%", 0) == 0, r.verdict_line);
  BOOST_TEST(r.verdict_line.find("faster (within one run: run-to-run noise not measured); 1 significant improvement") != std::string::npos, r.verdict_line);
  gate(r, {"step_time<-10%", "added>0"});
  BOOST_TEST(r.verdict_line.rfind("\xE2\x9D\x8C Gate failed (1 of 2 conditions): step time -25.0%", 0) == 0,
             r.verdict_line);
}

// Every kind of step (slower, faster, the same, not testable) with and without a gate that
// passes or fails, with and without rows that moved: the mark follows the rule, and every
// writer opens with the same line and prints the counts the line gives.
BOOST_AUTO_TEST_CASE(every_case_through_every_writer) {
  struct Step {
    const char* what;
    std::int64_t c, t;
    std::size_t units;
  };
  const Step steps[] = {{"slower", 77'500'000, 124'000'000, 6},
                        {"faster", 80'000'000, 60'000'000, 6},
                        {"same", 77'500'000, 77'500'000, 6},
                        {"untestable", 77'500'000, 124'000'000, 2}};
  const std::vector<std::pair<double, double>> still = {{1e6, 1e6}, {2e6, 2e6}};
  const std::vector<std::pair<double, double>> moved = {{1e6, 2e6}, {1e6, 1.5e6}, {3e6, 1e6}, {2e6, 2e6}};
  for (const auto& step : steps)
    for (const char* g : {"none", "pass", "fail"})
      for (const auto* rows : {&still, &moved}) {
        BOOST_TEST_CONTEXT(step.what << ", gate " << g << ", rows " << (rows == &moved ? "moved" : "still")) {
          auto r = decided(step.c, step.t, *rows, step.units);
          if (std::string(g) == "pass") gate(r, {"raw:deleted>1000"});
          if (std::string(g) == "fail") gate(r, {"raw:deleted>=0"});
          const auto expected = std::string(g) == "fail"         ? model::Mark::fail
                                : std::string(g) == "pass"       ? model::Mark::pass
                                : std::string(step.what) == "slower" ? model::Mark::fail
                                : std::string(step.what) == "faster" ? model::Mark::pass
                                                                     : model::Mark::neutral;
          BOOST_TEST(std::string(model::mark_name(r.verdict_mark)) == model::mark_name(expected), r.verdict_line);
          const char* sign = expected == model::Mark::fail   ? "\xE2\x9D\x8C "
                             : expected == model::Mark::pass ? "\xE2\x9C\x85 "
                                                             : "\xE2\x9A\xAA ";
          BOOST_TEST(r.verdict_line.rfind(sign, 0) == 0, r.verdict_line);
          // The line leads with the step time (after the gate when there is one).
          const auto step_at = r.verdict_line.find(std::string(g) == "none" ? "Step time " : ": step time ");
          BOOST_TEST(step_at != std::string::npos, r.verdict_line);
          // Its counts are the lists' counts, and the counts add up to the rows.
          const auto& v = r.verdict_counts;
          BOOST_TEST(v.regressions == r.top_regressions.significant());
          BOOST_TEST(v.improvements == r.top_improvements.significant());
          BOOST_TEST(v.regressions + v.improvements + v.left_out + v.same + v.untestable == r.rows.size());
          if (v.regressions)
            BOOST_TEST(r.verdict_line.find(std::to_string(v.regressions) + " significant regression") != std::string::npos,
                       r.verdict_line);
          if (std::string(step.what) == "untestable") BOOST_TEST(v.regressions + v.improvements == 0u);
          if (rows == &moved && std::string(step.what) != "untestable") BOOST_TEST(v.regressions == 2u);
          // Every writer: the same line first, the same counts.
          const auto md = markdown(r);
          BOOST_TEST(md.find("### " + r.verdict_line + "\n") != std::string::npos);
          std::ostringstream term;
          output::TerminalOptions to;
          to.width = 400;
          output::write_terminal_summary(r, to, term);
          BOOST_TEST(term.str().find("\n\n" + r.verdict_line + "\n") != std::string::npos, term.str());
          std::ostringstream js;
          output::write_json(r, js);
          const auto j = test::parse_json(js.str()).as_object();
          BOOST_TEST(j.at("verdict").at("line").as_string() == r.verdict_line);
          BOOST_TEST(j.at("verdict").at("regressions").as_int64() == static_cast<std::int64_t>(v.regressions));
          BOOST_TEST(j.at("verdict").at("mark").as_string() == model::mark_name(r.verdict_mark));
          std::ostringstream html;
          output::write_html(r, html);
          BOOST_TEST(html.str().find(tracediff::html_escape(r.verdict_text)) != std::string::npos);
          BOOST_TEST(html.str().find("class=\"verdict-line mark-" + std::string(model::mark_name(r.verdict_mark))) !=
                     std::string::npos);
          BOOST_TEST(html.str().find("<strong>" + std::to_string(v.regressions) + "</strong> <span aria-hidden=\"true\">") !=
                     std::string::npos);
          const auto heading = v.regressions == 0 ? std::string("none significant")
                                                  : std::to_string(v.regressions) + " significant";
          if (std::string(step.what) != "untestable") {
            BOOST_TEST(term.str().find("Regressions (median per step): " + heading) != std::string::npos, term.str());
            BOOST_TEST(md.find("#### Regressions (median per step): " + heading) != std::string::npos, md);
          }
        }
      }
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
