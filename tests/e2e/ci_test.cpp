// tracediff in CI, end to end on the bundled examples (examples/control vs
// examples/test): --fail-on exit codes, Markdown to stdout, the terminal summary.
#include <boost/test/unit_test.hpp>

#include <filesystem>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace fs = std::filesystem;

namespace {

const std::string k_control = TRACEDIFF_TESTS_DIR "/../examples/control";
const std::string k_test = TRACEDIFF_TESTS_DIR "/../examples/test";

std::vector<std::string> args(std::initializer_list<std::string> more) {
  std::vector<std::string> a = {k_control, k_test};
  a.insert(a.end(), more);
  return a;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ci_workflow)

BOOST_AUTO_TEST_CASE(gate_that_fires_exits_3_and_says_why) {
  const auto out = temp_dir("ci-fire");
  // The test side has one new kernel and one fewer.
  const auto r = run_cli(args({"--csv", out + "/r.csv", "--fail-on", "added>0", "--fail-on", "step_time>+50%"}));
  BOOST_TEST(r.exit_code == 3, r.err);
  BOOST_TEST(r.err.find("tracediff: fail-on: added>0: 1 added (") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("step_time>+50%") == std::string::npos, r.err);  // did not fire: not listed
  BOOST_TEST(fs::exists(out + "/r.csv"));  // outputs are written all the same
}

BOOST_AUTO_TEST_CASE(gate_that_holds_exits_0) {
  const auto out = temp_dir("ci-pass");
  const auto r = run_cli(args({"--csv", out + "/r.csv", "--fail-on", "step_time>+50%", "--fail-on", "deleted>5",
                               "--fail-on", "kernel:*gemm*>+1s"}));
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.find("fail-on") == std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(gate_thresholds_in_time_and_percent) {
  // Step time grows by about 3 % in the examples, within noise: +1% does not fire on
  // it, unless raw: asks for the threshold alone; +50% does not fire either way.
  auto r = run_cli(args({"--csv", "/dev/null", "--fail-on", "step_time>+1%"}));
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.find("step_time>+1%: passed (within noise): step time +") != std::string::npos, r.out);
  r = run_cli(args({"--csv", "/dev/null", "--fail-on", "raw:step_time>+1%"}));
  BOOST_TEST(r.exit_code == 3, r.err);
  BOOST_TEST(r.err.find("tracediff: fail-on: raw:step_time>+1%: step time +") != std::string::npos, r.err);
  BOOST_TEST(r.err.find(" ms \xE2\x86\x92 ") != std::string::npos, r.err);
  BOOST_TEST(run_cli(args({"--csv", "/dev/null", "--fail-on", "raw:step_time>+50%"})).exit_code == 0);
  // aten::mm is a third slower, significantly.
  r = run_cli(args({"--csv", "/dev/null", "--fail-on", "op:aten::mm>+1us", "-q"}));
  BOOST_TEST(r.exit_code == 3, r.err);
  r = run_cli(args({"--csv", "/dev/null", "--fail-on", "op:aten::mm<0"}));
  BOOST_TEST(r.exit_code == 0, r.err);
}

BOOST_AUTO_TEST_CASE(unmatched_name_is_an_error_unless_optional) {
  auto r = run_cli(args({"--csv", "/dev/null", "--fail-on", "op:aten::no_such_op>+1%"}));
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("error: --fail-on 'op:aten::no_such_op>+1%': no CPU row matches") != std::string::npos, r.err);
  r = run_cli(args({"--csv", "/dev/null", "--fail-on", "optional:op:aten::no_such_op>+1%"}));
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.err.find("warning: fail-on: optional:op:aten::no_such_op>+1%: not evaluated") != std::string::npos,
             r.err);
  // -q silences the warning, not the outcome in the summaries.
  const auto out = temp_dir("ci-optional");
  r = run_cli(args({"--markdown", out + "/c.md", "-q", "--fail-on", "optional:op:aten::no_such_op>+1%"}));
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.err.empty(), r.err);
  BOOST_TEST(read_file(out + "/c.md").find("not evaluated: no CPU row matches") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(malformed_gate_is_a_usage_error_before_reading) {
  for (const char* bad : {"step_time", "stp>5%", "step_time>5", "added>5%", "op:>1%"}) {
    // A missing CONTROL would be fatal (1) if anything were read first.
    const auto r = run_cli({"/no/such/control", k_test, "--fail-on", bad});
    BOOST_TEST(r.exit_code == 2, bad << ": " << r.err);
    BOOST_TEST(r.err.rfind("tracediff: error: --fail-on", 0) == 0, r.err);
  }
}

BOOST_AUTO_TEST_CASE(markdown_to_stdout) {
  const auto r = run_cli(args({"--markdown", "-", "--fail-on", "added>0"}));
  BOOST_TEST(r.exit_code == 3, r.err);
  // The verdict first (the gate failed), then the sides.
  BOOST_TEST(r.out.rfind("<!-- tracediff-report -->\n### \xE2\x9D\x8C Gate failed (1 of 1 condition)", 0) == 0, r.out);
  BOOST_TEST(r.out.find("\n\ntracediff: **Control** \xE2\x86\x92 **Test**\n") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("| Step time |") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("**By count:** 1 added \xC2\xB7 1 deleted") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("#### Regressions (median per step)") != std::string::npos);
  BOOST_TEST(r.out.find("Gate failed: 1 of 1") != std::string::npos);
  BOOST_TEST(r.out.find("Input problems") != std::string::npos);
  // Markdown on stdout: no terminal summary mixed in.
  BOOST_TEST(r.out.find("By count: ") == std::string::npos);
  BOOST_TEST(r.out.size() < 65'000u);
}

BOOST_AUTO_TEST_CASE(markdown_to_file_and_summary_on_stdout) {
  const auto out = temp_dir("ci-md");
  const auto r = run_cli(args({"--markdown", out + "/comment.md", "--label-control", "main", "--label-test", "PR"}));
  BOOST_TEST(r.exit_code == 0, r.err);
  const auto md = read_file(out + "/comment.md");
  BOOST_TEST(md.find("tracediff: **main** \xE2\x86\x92 **PR**") != std::string::npos, md);
  // The terminal summary: stdout is not a terminal here, so no colour.
  BOOST_TEST(r.out.rfind("tracediff: main \xE2\x86\x92 PR\n", 0) == 0, r.out);
  BOOST_TEST(r.out.find("Step time") != std::string::npos);
  BOOST_TEST(r.out.find("Regressions (median per step)") != std::string::npos);
  BOOST_TEST(r.out.find('\x1b') == std::string::npos);
  std::size_t start = 0;
  while (start < r.out.size()) {
    auto end = r.out.find('\n', start);
    if (end == std::string::npos) end = r.out.size();
    const auto line = r.out.substr(start, end - start);
    std::size_t cps = 0;
    for (unsigned char c : line) cps += (c & 0xC0) != 0x80;
    BOOST_TEST(cps <= 80u, line);
    start = end + 1;
  }
}

BOOST_AUTO_TEST_CASE(summary_is_skipped_when_stdout_is_taken_or_quiet) {
  auto r = run_cli(args({"--csv", "-"}));
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out.find("Step time, mean") == std::string::npos);
  r = run_cli(args({"--csv", "/dev/null", "-q"}));
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out.empty(), r.out);
  BOOST_TEST(r.err.empty(), r.err);  // nor progress: stderr is not a terminal
  r = run_cli(args({"--csv", "-", "--markdown", "-"}));
  BOOST_TEST(r.exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
