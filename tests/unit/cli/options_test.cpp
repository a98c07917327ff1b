// The command line into Options (cli/options.hpp): values where each option puts them,
// usage errors that name the option, and run()'s exit codes for each kind of failure.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/run.hpp"
#include "support/test_support.hpp"
#include "util/errors.hpp"

using namespace tracediff;

namespace {

// argv = tracediff ARGS..., parsed; labels given so that a CI's environment cannot change them.
cli::Options parse(std::vector<std::string> args, cli::ParseOutcome expect = cli::ParseOutcome::run) {
  args.insert(args.begin(), "tracediff");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  cli::Options o;
  BOOST_TEST((cli::parse_options(static_cast<int>(argv.size()), argv.data(), o) == expect));
  return o;
}

// The UsageError's message for ARGS, or "" when they parse.
std::string usage_error(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

int run(std::vector<std::string> args) {
  args.insert(args.begin(), "tracediff");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return cli::run(static_cast<int>(argv.size()), argv.data());
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_options)

BOOST_AUTO_TEST_CASE(two_paths_and_nothing_else_are_the_defaults) {
  const auto o = parse({"a", "b", "--label-control", "A", "--label-test", "B"});
  BOOST_TEST(o.control_inputs == std::vector<std::string>{"a"});
  BOOST_TEST(o.test_inputs == std::vector<std::string>{"b"});
  BOOST_TEST((!o.html && !o.csv && !o.json && !o.markdown));  // run() picks the HTML default
  const analysis::CompareOptions defaults;
  BOOST_TEST(o.compare.min_change.pct == defaults.min_change.pct);
  BOOST_TEST(o.compare.min_change.ns == 0.0);
  BOOST_TEST((o.compare.device == analysis::DeviceFilter::all));
  BOOST_TEST((!o.compare.control.ranks && !o.compare.test.iterations));
  BOOST_TEST((o.summarize.launcher == analysis::LauncherLevel::innermost));
  BOOST_TEST((!o.compare.by_shape && !o.summarize.by_shape));
  BOOST_TEST(o.compare.match_names);
}

BOOST_AUTO_TEST_CASE(each_option_lands_in_its_field) {
  const auto o = parse({"c", "t", "--add-control", "c2", "--json", "r.json", "--csv", "-", "--top", "3",
                        "--device", "gpu", "--control-rank", "0,2", "--test-iteration", "3-5,9",
                        "--min-change", "2.5%", "--min-change", "3ms", "--exact-names", "--launcher", "Module",
                        "--by-shape", "-j", "4", "--label-control", "before", "--label-test", "after"});
  BOOST_TEST(o.control_inputs == (std::vector<std::string>{"c", "c2"}));
  BOOST_TEST(*o.json == "r.json");
  BOOST_TEST(*o.csv == "-");
  BOOST_TEST((o.top == 3 && o.compare.top == 3));
  BOOST_TEST((o.compare.device == analysis::DeviceFilter::gpu));
  BOOST_TEST(*o.compare.control.ranks == (std::vector<int>{0, 2}));
  BOOST_TEST(!o.compare.test.ranks);
  BOOST_TEST(*o.compare.test.iterations == (std::vector<std::int64_t>{3, 4, 5, 9}));
  BOOST_TEST(o.compare.min_change.pct == 2.5);
  BOOST_TEST(o.compare.min_change.ns == 3'000'000.0);
  BOOST_TEST(!o.compare.match_names);
  BOOST_TEST((o.summarize.launcher == analysis::LauncherLevel::module));  // any case
  BOOST_TEST((o.compare.by_shape && o.summarize.by_shape));  // the traces are read with shapes
  BOOST_TEST(o.threads == 4u);
  BOOST_TEST((o.label_control == "before" && o.label_test == "after"));
}

BOOST_AUTO_TEST_CASE(a_step_marker_goes_to_each_side_and_a_sides_own_wins) {
  const auto o = parse({"c", "t", "--step-marker", "fwd", "--test-step-marker", "step\\d", "--label-control", "A",
                        "--label-test", "B"});
  BOOST_REQUIRE((o.compare.control.step_marker && o.compare.test.step_marker));
  BOOST_TEST(o.compare.control.step_marker->pattern() == "fwd");
  BOOST_TEST(o.compare.test.step_marker->pattern() == "step\\d");
  BOOST_TEST(o.compare.test.step_marker->option() == "--test-step-marker");
}

BOOST_AUTO_TEST_CASE(usage_errors_name_the_option) {
  BOOST_TEST(contains(usage_error({"c", "t", "--devic", "gpu"}), "did you mean --device?"));
  BOOST_TEST(contains(usage_error({"c", "t", "--launcher", "bogus"}), "--launcher"));
  BOOST_TEST(contains(usage_error({"c", "t", "--min-change", "5"}), "needs a unit"));
  BOOST_TEST(contains(usage_error({"c", "t", "--min-change", "-1%"}), "--min-change"));
  BOOST_TEST(contains(usage_error({"c", "t", "--test-iteration", "5-3"}), "runs backwards"));
  BOOST_TEST(contains(usage_error({"c", "t", "--by-shape", "--hta-compat"}), "--by-shape and --hta-compat"));
  BOOST_TEST(contains(usage_error({"c", "t", "--csv", "-", "--json", "-"}), "only one output"));
  BOOST_TEST(contains(usage_error({"c", "t", "--label-control", "x", "--label-test", "x"}), "must differ"));
  BOOST_TEST(contains(usage_error({"c", "t", "--json-full-tree"}), "--json-full-tree"));
  BOOST_TEST(contains(usage_error({"c", "t", "--report-url", "ftp://x"}), "--report-url"));
  BOOST_TEST(!usage_error({"only-one"}).empty());
}

BOOST_AUTO_TEST_CASE(help_and_version_exit_ok_without_running) {
  parse({"--help"}, cli::ParseOutcome::exit_ok);
  parse({"--version"}, cli::ParseOutcome::exit_ok);
}

BOOST_AUTO_TEST_CASE(labels_come_from_the_ci_only_when_none_is_given) {
  cli::Options o;
  cli::default_labels_from_ci(o, [](const char* name) -> const char* {
    return std::string(name) == "GITHUB_SHA" ? "0123456789abcdef" : nullptr;
  });
  BOOST_TEST(o.label_test == "0123456");
  BOOST_TEST(o.label_control == "Control");
  cli::Options p;
  cli::default_labels_from_ci(p, [](const char*) -> const char* { return "not-a-hash"; });
  BOOST_TEST((p.label_control == "Control" && p.label_test == "Test"));
}

BOOST_AUTO_TEST_CASE(run_returns_each_failures_exit_code) {
  BOOST_TEST(run({"--version"}) == cli::k_exit_ok);
  BOOST_TEST(run({"c", "t", "--min-change", "5"}) == cli::k_exit_usage);
  BOOST_TEST(run({"c", "t", "--bogus"}) == cli::k_exit_usage);
  const auto dir = test::temp_dir("cli-exit");
  // A path that does not exist: nothing can be read (Fatal, exit 1).
  BOOST_TEST(run({dir + "/missing", dir + "/missing2", "--json", dir + "/r.json", "-q"}) == cli::k_exit_fatal);
  // A --fail-on condition that holds (an operator new on the test side): exit 3, the
  // outputs written.
  test::write_file(dir + "/c.json", test::trace_json({test::x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 100),
                                                      test::x_event("cpu_op", "aten::mm", 1, 1, 10, 20)}));
  test::write_file(dir + "/t.json", test::trace_json({test::x_event("user_annotation", "ProfilerStep#1", 1, 1, 0, 100),
                                                      test::x_event("cpu_op", "aten::mm", 1, 1, 10, 20),
                                                      test::x_event("cpu_op", "aten::relu", 1, 1, 40, 5)}));
  BOOST_TEST(run({dir + "/c.json", dir + "/t.json", "--json", dir + "/ok.json", "-q"}) == cli::k_exit_ok);
  BOOST_TEST(run({dir + "/c.json", dir + "/t.json", "--json", dir + "/r.json", "-q", "--fail-on", "added>0"}) ==
             cli::k_exit_gate);
  BOOST_TEST(!test::read_file(dir + "/r.json").empty());
}

BOOST_AUTO_TEST_SUITE_END()
