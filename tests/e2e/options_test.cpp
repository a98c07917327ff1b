// Option values that are non-finite, negative or absurd: refused with exit 2 before
// anything is read (the inputs here do not exist, so reading would exit 1), quickly
// and without allocating for them.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>

#include "cli/options.hpp"
#include "support/test_support.hpp"
#include "util/errors.hpp"

using namespace tracediff;
using namespace tracediff::test;

namespace {

const std::string k_trace = R"({"traceEvents": [
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":20}
]})";

// "0-999999,1000000-1999999,...": ranges of a million steps each, `bytes` long.
std::string long_ranges(std::size_t bytes) {
  std::string s;
  for (std::int64_t a = 0; s.size() < bytes; a += 1'000'000)
    s += (s.empty() ? "" : ",") + std::to_string(a) + "-" + std::to_string(a + 999'999);
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(options)

BOOST_AUTO_TEST_CASE(absurd_values_exit_2_before_reading) {
  const std::string missing = "/nonexistent/tracediff-options";
  const std::vector<std::vector<std::string>> bad = {
      {"--min-change", "inf%"},
      {"--min-change", "infinity%"},
      {"--min-change", "nan%"},
      {"--min-change", "-5%"},
      {"--min-change", "-0.1us"},
      {"--min-change", "infus"},
      {"--min-change", "1e400%"},      // past double
      {"--min-change", "1e300%"},      // finite, absurd
      {"--min-change", "2000000%"},
      {"--min-change", "1e300s"},      // finite, but infinite in µs
      {"--min-change", "2000000s"},
      {"--min-change", "0x10%"},
      {"--min-change", " 5%"},
      {"--min-change", "5"},
      {"--top", "0"},
      {"--top", "-1"},
      {"--top", "1000000000000"},
      {"--top", "nan"},
      {"-j", "100000000"},
      {"-j", "-1"},
      {"--test-iteration", "0-1e18"},
      {"--test-iteration", "0-999999999999999999"},
      {"--control-iteration", "0-1000000"},   // 1,000,001 steps: one past the bound
      {"--control-iteration", long_ranges(20'000)},
      {"--test-iteration", "5," + long_ranges(100)},
      {"--control-rank", "99999999999"},
  };
  // The slowest refusal is printed, not checked: a loaded machine is no failure (issue 42 item 8).
  double slowest = 0;
  std::string slowest_option;
  for (const auto& opt : bad) {
    std::vector<std::string> args = {missing + "/a", missing + "/b"};
    args.insert(args.end(), opt.begin(), opt.end());
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_cli(args);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    BOOST_TEST(r.exit_code == 2, opt[0] << " " << opt[1].substr(0, 40) << ": " << r.err);
    BOOST_TEST(r.err.rfind("tracediff: error: ", 0) == 0u, r.err);
    BOOST_TEST(r.err.find("nonexistent") == std::string::npos, r.err);  // nothing was read
    BOOST_TEST(r.err.size() < 8192u);  // a 20 KB value is not echoed whole... much
    if (secs > slowest) slowest = secs, slowest_option = opt[0] + " " + opt[1].substr(0, 40);
  }
  BOOST_TEST_MESSAGE(bad.size() << " absurd values refused, the slowest in " << slowest << " s (" << slowest_option << ")");
}

BOOST_AUTO_TEST_CASE(messages_say_what_is_wrong) {
  const std::string missing = "/nonexistent/x";
  auto r = run_cli({missing, missing, "--min-change", "inf%"});
  BOOST_TEST(r.err.find("--min-change: 'inf%' is not a finite non-negative number") != std::string::npos, r.err);
  r = run_cli({missing, missing, "--test-iteration", long_ranges(20'000)});
  BOOST_TEST(r.err.find("selects more than 1,000,000 steps") != std::string::npos, r.err);
  r = run_cli({missing, missing, "--min-change", "1e300%"});
  BOOST_TEST(r.err.find("more than 1,000,000%") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(sensible_values_are_kept_as_given) {
  const auto dir = temp_dir("options-ok");
  write_file(dir + "/rank0.json", k_trace);
  const auto r = run_cli({dir, dir, "--min-change", "0%", "--min-change", "1e12us", "--top", "1000", "-j", "1024",
                          "--test-iteration", "1", "--json", "-", "-q"});
  BOOST_TEST(r.exit_code == 0, r.err);
  const auto j = parse_json(r.out).as_object();
  BOOST_TEST(j.at("min_change").at("pct").to_number<double>() == 0.0);
  BOOST_TEST(j.at("min_change").at("us").to_number<double>() == 1e12);
  const auto pct = run_cli({dir, dir, "--min-change", "1000000%", "--json", "-", "-q"});
  BOOST_TEST(pct.exit_code == 0, pct.err);
  BOOST_TEST(parse_json(pct.out).at("min_change").at("pct").to_number<double>() == 1e6);
}

BOOST_AUTO_TEST_CASE(parsers_bound_what_they_build) {
  // The parsers themselves: the bound holds over all ranges together.
  BOOST_TEST(cli::parse_iteration_list("0-999999")->size() == 1'000'000u);
  BOOST_CHECK_THROW(cli::parse_iteration_list("0-999999,5"), UsageError);
  BOOST_CHECK_THROW(cli::parse_iteration_list("0-499999,500000-1000000"), UsageError);
  BOOST_TEST(cli::parse_iteration_list("7,7,7")->size() == 3u);
  analysis::CompareOptions o;
  cli::parse_min_change("2.5ms", o);
  BOOST_TEST(o.min_change.ns == 2'500'000.0);
  BOOST_CHECK_THROW(cli::parse_min_change("NaNms", o), UsageError);
  BOOST_CHECK_THROW(cli::parse_min_change("+5%", o), UsageError);
}

BOOST_AUTO_TEST_SUITE_END()
