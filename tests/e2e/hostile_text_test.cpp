// Hostile text end to end: names in traces and summaries, file names and arguments
// that hold escape sequences, line breaks or bidi controls never reach the terminal
// raw, whichever line shows them (warnings, errors, notes, the terminal summary, an
// output on stdout), and no line can pass for one of tracediff's own.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "support/sanitize_support.hpp"
#include "support/test_support.hpp"
#include "util/escape.hpp"

using namespace tracediff::test;
namespace fs = std::filesystem;

namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A cpu_op with any name (JSON-escaped, as the profiler writes it).
std::string op(const std::string& name, long ts, long dur) {
  return "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":" + tracediff::json_string(name) +
         ",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(ts) + ",\"dur\":" + std::to_string(dur) + "}";
}

// A trace with a step and every hostile name twice as slow in TEST (so each shows in
// the top lists, the gate and the Markdown), plus a name only TEST has.
std::string hostile_trace(int factor, bool extra) {
  std::vector<std::string> events = {x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 100000)};
  long ts = 10;
  for (const auto& n : hostile_names()) {
    events.push_back(op(n, ts, 10L * factor));
    ts += 100;
  }
  if (extra) events.push_back(op("added\x1b[2J\nhttp://added.example", ts, 10));
  return trace_json(events);
}

// Each line of stderr is one of tracediff's own, whole: nothing a name holds can
// start a line or move the cursor.
void check_lines(const std::string& err) {
  BOOST_TEST(unsafe_for_humans(err, true).empty(), err);
  std::istringstream in(err);
  std::string line;
  while (std::getline(in, line)) {
    BOOST_TEST((line.rfind("tracediff: ", 0) == 0 || line.rfind("Run 'tracediff --help'", 0) == 0), line);
    BOOST_TEST(line.find('\r') == std::string::npos, line);
  }
}

// Runs a shell command line under a pseudo-terminal (util-linux `script`), so that
// stdout is a TTY; returns what the terminal received.
std::string on_a_terminal(const std::string& command) {
  const auto dir = temp_dir("tty");
  const std::string cmd = "script -qec " + shell_quote(command) + " /dev/null > " + dir + "/out 2>&1 < /dev/null";
  BOOST_REQUIRE(std::system(cmd.c_str()) == 0);
  return read_file(dir + "/out");
}

std::string binary() { return TRACEDIFF_BINARY; }

}  // namespace

BOOST_AUTO_TEST_SUITE(hostile_text)

BOOST_AUTO_TEST_CASE(names_and_file_names_reach_no_terminal_raw) {
  const auto c = temp_dir("hostile-c");
  const auto t = temp_dir("hostile-t");
  // File names with an escape sequence, a line break and a bidi override: each gets a
  // warning (no rank in the file, beside a second file of the side), which names the file.
  write_file(c + "/clear\x1b[2J\x1b]52;c;ZXZpbA==\x07.json", hostile_trace(1, false));
  write_file(t + "/line\ntracediff: error: forged\xE2\x80\xAE.json", hostile_trace(2, true));
  write_file(c + "/rank1.json", hostile_trace(1, false));
  write_file(t + "/rank1.json", hostile_trace(2, true));
  const auto r = run_cli({c, t, "--label-control", "ctl\x1b[31m", "--csv", c + "/out.csv", "--markdown",
                          c + "/out.md", "--fail-on", "any-op:*>+1%", "--fail-on", "added>0"});
  BOOST_TEST(r.exit_code == 3, r.err);
  check_lines(r.err);
  BOOST_TEST(r.err.find("clear\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07.json") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("line\\ntracediff: error: forged\\u202e.json") != std::string::npos, r.err);
  // The terminal summary (stdout): the names, escaped.
  BOOST_TEST(unsafe_for_humans(r.out, true).empty(), r.out);
  BOOST_TEST(r.out.find("ctl\\x1b[31m") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("added\\x1b[2J\\nhttp://added.example") != std::string::npos, r.out);
  // The Markdown: one line per line it means, no control character.
  BOOST_TEST(unsafe_for_humans(read_file(c + "/out.md"), true).empty());
  // A CSV file keeps the names as they are (it is data), with the formula guard.
  const auto csv = read_file(c + "/out.csv");
  BOOST_TEST(csv.find("esc\x1b[31mred") != std::string::npos);
  BOOST_TEST(csv.find("\"'=HYPERLINK(\"\"http://e.example\"\")\"") != std::string::npos, csv);
}

BOOST_AUTO_TEST_CASE(outputs_on_stdout_hold_no_raw_control) {
  const auto c = temp_dir("stdout-c");
  const auto t = temp_dir("stdout-t");
  write_file(c + "/rank0.json", hostile_trace(1, false));
  write_file(t + "/rank0.json", hostile_trace(2, true));
  for (const auto* flag : {"--json", "--markdown", "-o"}) {
    const auto r = run_cli({c, t, flag, "-"});
    BOOST_TEST(r.exit_code == 0, flag << ": " << r.err);
    BOOST_TEST(unsafe_for_humans(r.out, true).empty(), flag);
    check_lines(r.err);
  }
  // --csv - into a pipe is data: the names as they are; on a terminal, escaped.
  const auto piped = run_cli({c, t, "--csv", "-"});
  BOOST_TEST(piped.out.find("esc\x1b[31mred") != std::string::npos);
  const auto tty = on_a_terminal(binary() + " " + shell_quote(c) + " " + shell_quote(t) + " --csv - -q");
  BOOST_TEST(tty.find("esc\\x1b[31mred") != std::string::npos, tty);
  BOOST_TEST(tty.find("nl\\ntracediff: error: forged") != std::string::npos, tty);
  BOOST_TEST(unsafe_for_humans(tty, true).empty(), tty);
  // The same when the terminal is named: /dev/stdout, /dev/fd/1, /dev/tty.
  for (const auto* path : {"/dev/stdout", "/dev/fd/1", "/dev/tty"}) {
    const auto named = on_a_terminal(binary() + " " + shell_quote(c) + " " + shell_quote(t) + " -q --csv " + path);
    BOOST_TEST(named.find("esc\\x1b[31mred") != std::string::npos, path << ": " << named);
    BOOST_TEST(unsafe_for_humans(named, true).empty(), path << ": " << named);
  }
}

BOOST_AUTO_TEST_CASE(errors_quote_arguments_and_paths_safely) {
  const auto dir = temp_dir("err");
  write_file(dir + "/rank0.json", hostile_trace(1, false));
  // A missing path (fatal), a bad option value (usage), a bad --fail-on (usage).
  for (const auto& [args, code] : std::vector<std::pair<std::vector<std::string>, int>>{
           {{dir + "/no\x1b[2Jsuch\ntracediff: error: forged", dir}, 1},
           {{dir, dir, "--device", "\x1b]52;c;ZXZpbA==\x07"}, 2},
           {{dir, dir, "--fail-on", "op:\x1b[2J\n>+5%"}, 2},
           {{dir, dir, "--fail-on", "op:\xE2\x80\xAEnothing>+5%"}, 2},
       }) {
    const auto r = run_cli(args);
    BOOST_TEST(r.exit_code == code, r.err);
    BOOST_TEST(r.err.rfind("tracediff: error: ", 0) == 0u, r.err);
    check_lines(r.err);
  }
}

BOOST_AUTO_TEST_CASE(summary_strings_reach_no_terminal_raw) {
  const auto dir = temp_dir("sum-hostile");
  write_file(dir + "/rank0.json", hostile_trace(1, false));
  const auto sum = dir + "/s.tdsum.json";
  auto r = run_cli({"summarize", dir, "-o", sum, "--label", "lab\x1b[2J"});
  BOOST_TEST(r.exit_code == 0, r.err);
  check_lines(r.err);
  r = run_cli({sum, dir, "--csv", dir + "/o.csv"});
  BOOST_TEST(r.exit_code == 0, r.err);
  check_lines(r.err);
  BOOST_TEST(unsafe_for_humans(r.out, true).empty(), r.out);
  // A summary that is refused for a string it holds: the message quotes it escaped.
  auto text = read_file(sum);
  // In the table of strings: a category and a kind.
  const auto at = text.find("\"cpu_op\"");
  BOOST_REQUIRE(at != std::string::npos);
  text.replace(at, 8, "\"\\u001b[2J\\nforged\"");
  write_file(dir + "/bad.tdsum.json", text);
  r = run_cli({dir + "/bad.tdsum.json", dir});
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(r.err.find("\\x1b[2J\\nforged") != std::string::npos, r.err);
  check_lines(r.err);
}

BOOST_AUTO_TEST_SUITE_END()
