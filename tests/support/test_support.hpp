#pragma once
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
// Helpers shared by the tests: run the real binary, read files, parse CSV.
#include <string>
#include <vector>

namespace tracediff::test {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs the tracediff binary with args (each shell-quoted); stdin is /dev/null.
CliResult run_cli(const std::vector<std::string>& args);

// A run of the binary with its wall time and peak RSS (wait4 reports the child's
// own); stdout and stderr go to files in dir, stderr is kept.
struct Measured {
  int exit_code = -1;
  long max_rss_kb = 0;
  double seconds = 0;      // wall
  double cpu_seconds = 0;  // user + system, of every thread: what load on the machine barely affects
  std::string err;
};
Measured run_measured(const std::vector<std::string>& args, const std::string& dir);

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& bytes);
std::string gzip_bytes(const std::string& bytes);

// A fresh empty directory under the system temp dir.
std::string temp_dir(const std::string& tag);

// RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into rows of fields.
std::vector<std::vector<std::string>> parse_csv(const std::string& text);

// A complete ("X") Kineto event as JSON, with args.correlation when corr >= 0.
std::string x_event(const std::string& cat, const std::string& name, int pid, int tid, long ts, long dur,
                    long corr = -1);
// {"traceEvents": [events...]}
std::string trace_json(const std::vector<std::string>& events);

// A report's JSON, parsed as deep as its call tree nests (an object and an array
// per level, up to k_tree_depth levels; Boost.JSON's default stops at 32).
boost::json::value parse_json(std::string_view text);
boost::json::value parse_json(std::string_view text, boost::system::error_code& ec);
// The report's JSON of `tracediff ARGS --json - -q`. A run that does not exit 0 throws
// std::runtime_error with its stderr, which fails the test case.
boost::json::object report_json(std::vector<std::string> args);
// The same for `tracediff CONTROL TEST EXTRA...`.
boost::json::object report_json(const std::string& control, const std::string& test, std::vector<std::string> extra = {});

// Runs tools/tracegen with args into a fresh temp dir (tagged) and returns the dir.
std::string tracegen(const std::string& tag, const std::vector<std::string>& args);

// Test data. The small real traces and HTA's reference tables ship in tests/data;
// the large ones (the 34 MB hta-trace-diff pair, mtia-large, large-216k-events) are
// read from ../shared beside the checkout (or $TRACEDIFF_SHARED_DIR) when it is there.
std::string data_dir();    // tests/data in the repository
std::string shared_dir();  // ../shared beside the checkout, or $TRACEDIFF_SHARED_DIR
bool shared_available();
// A trace file or folder by its path under traces/ (e.g. "hta-trace-compare/base"):
// tests/data first, then ../shared; empty when neither has it.
std::string trace_path(const std::string& rel);
// The trace files of tests/data/traces, sorted.
std::vector<std::string> data_trace_files();
// Those of ../shared/traces that tests/data does not have (the large ones), sorted;
// empty without ../shared.
std::vector<std::string> large_trace_files();
// Both.
std::vector<std::string> all_trace_files();
// The large traces listed in tests/data/README.md, as paths under traces/ (a function:
// test cases' decorators are built during static initialisation).
std::vector<std::string> large_traces();

// A Boost.Test precondition: the test case runs only when every trace named (paths
// under traces/, see trace_path) is found, and is reported as skipped otherwise:
//   BOOST_AUTO_TEST_CASE(x, *boost::unit_test::precondition(needs_traces({"hta-trace-diff/control"})))
struct needs_traces {
  std::vector<std::string> rels;
  needs_traces(std::vector<std::string> r) : rels(std::move(r)) {}
  boost::test_tools::assertion_result operator()(boost::unit_test::test_unit_id) const;
};

}  // namespace tracediff::test
