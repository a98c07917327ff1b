// The command line end to end: outputs, defaults and the error paths with their
// exit codes (0 ok, 1 fatal, 2 usage) and messages.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace fs = std::filesystem;

namespace {

const std::string k_trace = R"({"distributedInfo": {"rank": 0}, "traceEvents": [
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":20}
]})";

std::string trace_dir(const std::string& tag, const std::string& body = k_trace) {
  const auto dir = temp_dir(tag);
  write_file(dir + "/rank0.json", body);
  return dir;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli)

BOOST_AUTO_TEST_CASE(help_and_version_go_to_stdout) {
  auto r = run_cli({"--help"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out.find("CONTROL") != std::string::npos);
  BOOST_TEST(r.out.find("--hta-compat") != std::string::npos);
  r = run_cli({"--version"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out.rfind("tracediff ", 0) == 0);
}

// CLI11's transformers into enums printed the enums' values (0, 1, 2) as raw bytes in
// --help and in errors (issue #25): every line is text, and the choices are named.
BOOST_AUTO_TEST_CASE(help_and_errors_have_no_control_bytes) {
  const auto text_only = [](const std::string& s) {
    return std::none_of(s.begin(), s.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return (u < 0x20 && c != '\n') || u == 0x7f;
    });
  };
  for (const auto& args : std::vector<std::vector<std::string>>{{"--help"}, {"summarize", "--help"}}) {
    const auto r = run_cli(args);
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(text_only(r.out), r.out);
    BOOST_TEST(r.out.find("--launcher LEVEL:{innermost,module,outermost}") != std::string::npos, r.out);
  }
  BOOST_TEST(run_cli({"--help"}).out.find("--color WHEN:{always,auto,never}") != std::string::npos);
  const auto dir = trace_dir("choices");
  for (const auto& [flag, value] : std::vector<std::pair<std::string, std::string>>{{"--launcher", "bogus"},
                                                                                   {"--color", "bogus"}}) {
    const auto r = run_cli({dir, dir, flag, value});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(text_only(r.err), r.err);
  }
  // The values still work, --launcher in any case.
  BOOST_TEST(run_cli({dir, dir, "--launcher", "Module", "--color", "never", "--csv", "-"}).exit_code == 0);
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
  const auto dir = trace_dir("usage");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {},
           {dir},
           {dir, dir, "--device", "tpu"},
           {dir, dir, "--control-rank", "x"},
           {dir, dir, "--test-iteration", "5-2"},
           {dir, dir, "--no-such-flag"},
           {dir, dir, "--csv", "-", "--json", "-"},
           {dir, dir, "--control-iteration", "7", "--csv", "-"},
       }) {
    const auto r = run_cli(args);
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err.rfind("tracediff: error: ", 0) == 0, r.err);
  }
}

BOOST_AUTO_TEST_CASE(missing_path_is_fatal_and_named) {
  const auto dir = trace_dir("missing");
  const auto r = run_cli({dir, dir + "/nope", "--csv", "-"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find(dir + "/nope") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(side_without_usable_events_is_fatal) {
  const auto good = trace_dir("good");
  const auto empty = temp_dir("empty");
  auto r = run_cli({good, empty, "--csv", "-"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("Test") != std::string::npos, r.err);
  const auto meta_only = trace_dir("meta", R"({"traceEvents": [{"ph":"M","name":"process_name","pid":1}]})");
  r = run_cli({good, meta_only, "--csv", "-"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("rank0.json") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(unwritable_output_is_fatal_before_reading) {
  const auto dir = trace_dir("unwritable");
  auto r = run_cli({dir, dir, "--csv", dir + "/no/such/dir/out.csv"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("out.csv") != std::string::npos, r.err);
  r = run_cli({dir, dir, "-o", dir});
  BOOST_TEST(r.exit_code == 1);
  r = run_cli({dir, dir, "--json", dir + "/rank0.json"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(read_file(dir + "/rank0.json") == k_trace);
}

BOOST_AUTO_TEST_CASE(writes_every_output_and_json_has_the_contract) {
  const auto dir = trace_dir("outputs");
  const auto out = temp_dir("outputs-out");
  const auto r = run_cli({dir, dir, "-o", out + "/r.html", "--csv", out + "/r.csv", "--json", out + "/r.json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(fs::file_size(out + "/r.html") > 1000u);
  const auto csv = parse_csv(read_file(out + "/r.csv"));
  BOOST_TEST(csv.size() == 2u);
  const auto j = parse_json(read_file(out + "/r.json")).as_object();
  for (const char* key : {"control", "test", "rows", "ops_diff", "diagnostics"}) BOOST_TEST(j.contains(key), key);
  const auto& row = j.at("rows").as_array().at(0).as_object();
  for (const char* key : {"name", "category", "control_count", "test_count", "control_total_us", "test_total_us",
                          "diff_count", "diff_total_us", "change"})
    BOOST_TEST(row.contains(key), key);
  BOOST_TEST(row.at("control_total_us").as_int64() == 20);
  BOOST_TEST(row.at("change").as_string() == "unchanged");
  for (const char* g : {"added", "deleted", "increased", "decreased", "unchanged"})
    BOOST_TEST(j.at("ops_diff").as_object().contains(g), g);
  // No stray temporary files beside the outputs.
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(out)) ++files;
  BOOST_TEST(files == 3);
}

// Outputs replace what is there (the names are swapped, then the old file removed):
// the new content, the old file's permissions, no temporary files, symlinks kept.
BOOST_AUTO_TEST_CASE(outputs_replace_existing_files) {
  const auto dir = trace_dir("replace");
  const auto out = temp_dir("replace-out");
  write_file(out + "/r.csv", "old report\n");
  fs::permissions(out + "/r.csv", fs::perms::owner_read | fs::perms::owner_write);
  write_file(out + "/real.json", "old json\n");
  fs::create_symlink("real.json", out + "/link.json");
  auto r = run_cli({dir, dir, "--csv", out + "/r.csv", "--json", out + "/link.json", "--markdown", out + "/new.md"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(read_file(out + "/r.csv").find("old report") == std::string::npos);
  BOOST_TEST(parse_csv(read_file(out + "/r.csv")).size() == 2u);
  // A private report stays private (issue #16).
  BOOST_TEST((fs::status(out + "/r.csv").permissions() == (fs::perms::owner_read | fs::perms::owner_write)));
  BOOST_TEST(fs::is_symlink(out + "/link.json"));
  BOOST_TEST(read_file(out + "/real.json").find("\"ops_diff\"") != std::string::npos);
  BOOST_TEST(read_file(out + "/new.md").size() > 10u);
  // Again over the outputs just written.
  const auto csv = read_file(out + "/r.csv");
  r = run_cli({dir, dir, "--csv", out + "/r.csv", "-q"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(read_file(out + "/r.csv") == csv);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  BOOST_TEST(names.size() == 4u);
  for (const auto& n : names) BOOST_TEST(n.find(".tmp-") == std::string::npos, n);
}

BOOST_AUTO_TEST_CASE(outputs_are_deterministic) {
  const auto c = trace_path("hta-trace-compare/base");
  const auto t = trace_path("hta-trace-compare/test");
  BOOST_REQUIRE(!c.empty() && !t.empty());
  const auto a = run_cli({c, t, "-o", "-", "-q"});
  const auto b = run_cli({c, t, "-o", "-", "-q", "-j", "1"});
  BOOST_TEST(a.exit_code == 0);
  BOOST_TEST(a.out.size() > 1000u);
  BOOST_TEST((a.out == b.out));
  const auto j1 = run_cli({c, t, "--json", "-", "-q"});
  const auto j2 = run_cli({c, t, "--json", "-", "-q"});
  BOOST_TEST((j1.out == j2.out));
}

namespace {
void each_loads(const std::vector<std::string>& files) {
  for (const auto& f : files) {
    const auto r = run_cli({f, f, "--json", "-", "-q"});
    BOOST_TEST(r.exit_code == 0, f << ": " << r.err);
    if (r.exit_code == 0) {
      const auto j = parse_json(r.out);
      BOOST_TEST(j.at("control").at("files").as_array().size() == 1u, f);
    }
  }
}
}  // namespace

// Every real trace of tests/data (tests/data/README.md lists them) ...
BOOST_AUTO_TEST_CASE(every_real_trace_loads) {
  const auto files = data_trace_files();
  BOOST_TEST(files.size() >= 15u);
  each_loads(files);
}

// ... and the large ones of ../shared: skipped without it.
BOOST_AUTO_TEST_CASE(every_large_trace_loads, *boost::unit_test::precondition(needs_traces(large_traces()))) {
  const auto files = large_trace_files();
  BOOST_TEST(files.size() >= 4u);
  each_loads(files);
}

BOOST_AUTO_TEST_CASE(same_rank_twice_is_used_and_said) {
  const auto dir = temp_dir("duprank");
  write_file(dir + "/a.json", k_trace);
  write_file(dir + "/b.json", k_trace);
  const auto r = run_cli({dir, trace_dir("dup-other"), "--json", "-"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.err.find("rank 0 has 2 files") != std::string::npos, r.err);
  const auto j = parse_json(r.out);
  BOOST_TEST(j.at("rows").at(0).at("control_count").as_int64() == 2);
}

// ---------------------------------------------------------------- polish (#19.7)

namespace {

// stdout and stderr of a shell command, together (std::system's status apart).
struct Shell {
  int status = -1;
  std::string text;
};
Shell shell(const std::string& command) {
  const auto dir = temp_dir("shell");
  Shell r;
  r.status = std::system((command + " > " + dir + "/out 2>&1 < /dev/null").c_str());
  r.text = read_file(dir + "/out");
  return r;
}
std::string quoted(const std::string& s) { return "'" + s + "'"; }  // paths of temp_dir: no quote in them

}  // namespace

BOOST_AUTO_TEST_CASE(help_lists_the_subcommands) {
  const auto r = run_cli({"--help"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out.find("tracediff summarize SET... -o FILE") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("tracediff merge SUMMARY... -o FILE") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(an_unknown_option_suggests_the_closest) {
  const auto dir = trace_dir("suggest");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{dir, dir, "--devic", "gpu"}, "unknown option '--devic'; did you mean --device?"},
      {{dir, dir, "--colr=never"}, "unknown option '--colr'; did you mean --color?"},
      {{dir, dir, "--lable-test", "x"}, "unknown option '--lable-test'; did you mean --label-test?"},
      {{dir, dir, "--hta"}, "unknown option '--hta'; did you mean --hta-compat?"},
      {{dir, dir, "--shortnames"}, "unknown option '--shortnames'; did you mean --short-names?"},
      // Before a positional is missing: the unknown option is the cause.
      {{"--devce", "gpu"}, "did you mean --device?"},
      {{"summarize", dir, "-o", dir + "/s.tdsum.json", "--lanucher", "module"}, "did you mean --launcher?"},
      {{"merge", "a.tdsum.json", "-o", "m.tdsum.json", "--quite"}, "did you mean --quiet?"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = run_cli(args);
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.err.rfind("tracediff: error: ", 0) == 0, r.err);
    BOOST_TEST(r.err.find(message) != std::string::npos, message << " in: " << r.err);
  }
  // Nothing close: no guess, but the option is named.
  const auto r = run_cli({dir, dir, "--frobnicate"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("unknown option '--frobnicate'") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("did you mean") == std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(color_is_auto_always_or_never) {
  const auto c = trace_dir("color-c");
  const auto t = trace_dir("color-t", R"({"distributedInfo": {"rank": 0}, "traceEvents": [
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":60},
  {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":80,"dur":5}
]})");
  const auto out = temp_dir("color-out") + "/r.html";
  auto has_colour = [](const std::string& s) { return s.find("\x1b[") != std::string::npos; };
  // stdout a pipe: auto (the default) and never print none, always prints them.
  auto r = run_cli({c, t, "-o", out});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(!has_colour(r.out));
  r = run_cli({c, t, "-o", out, "--color=always"});
  BOOST_TEST(has_colour(r.out), r.out);
  r = run_cli({c, t, "-o", out, "--color", "never"});
  BOOST_TEST(!has_colour(r.out));
  r = run_cli({c, t, "-o", out, "--color=sometimes"});
  BOOST_TEST(r.exit_code == 2);
  // On a terminal (script(1) gives it one): auto colours, unless NO_COLOR is set; never never.
  const std::string cmd = std::string(TRACEDIFF_BINARY) + " " + quoted(c) + " " + quoted(t) + " -o " + quoted(out);
  const auto on_tty = [&](const std::string& env, const std::string& extra) {
    return shell(env + " script -qec " + quoted(cmd + extra) + " /dev/null");
  };
  auto s = on_tty("", "");
  BOOST_TEST_REQUIRE(s.status == 0, s.text);
  BOOST_TEST(has_colour(s.text), s.text);
  s = on_tty("NO_COLOR=1", "");
  BOOST_TEST(!has_colour(s.text), s.text);
  s = on_tty("", " --color=never");
  BOOST_TEST(!has_colour(s.text), s.text);
  s = on_tty("NO_COLOR=1", " --color=always");
  BOOST_TEST(has_colour(s.text), s.text);
}

BOOST_AUTO_TEST_CASE(the_report_path_is_printed_absolute) {
  const auto dir = trace_dir("abs");
  const auto work = temp_dir("abs-cwd");
  fs::create_directories(work + "/sub");
  const auto s = shell("cd " + quoted(work) + " && " + TRACEDIFF_BINARY + " " + quoted(dir) + " " + quoted(dir) +
                       " -o sub/../report.html");
  BOOST_TEST_REQUIRE(s.status == 0, s.text);
  const auto canonical = fs::canonical(work).string();
  BOOST_TEST(s.text.find("tracediff: report written to " + canonical + "/report.html\n") != std::string::npos,
             s.text);
  BOOST_TEST(fs::exists(work + "/report.html"));
}

BOOST_AUTO_TEST_CASE(merge_accepts_quiet) {
  const auto dir = trace_dir("merge-q");
  const auto sum = temp_dir("merge-q-out");
  auto r = run_cli({"summarize", "-q", dir, "-o", sum + "/a.tdsum.json"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  r = run_cli({"merge", "-q", sum + "/a.tdsum.json", "-o", sum + "/m.tdsum.json"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.empty(), r.err);
  BOOST_TEST(fs::exists(sum + "/m.tdsum.json"));
  r = run_cli({"merge", "--quiet", sum + "/a.tdsum.json", "-o", sum + "/m2.tdsum.json"});
  BOOST_TEST(r.exit_code == 0, r.err);
}

// Two summaries of one rank: the message names the two summaries given (what to act
// on), then the traces inside; it once named only the traces (c/rank0.json, c/rank0.json).
BOOST_AUTO_TEST_CASE(merge_names_the_summaries_that_share_a_rank) {
  const auto dir = trace_dir("merge-dup");
  const auto sum = temp_dir("merge-dup-out");
  BOOST_TEST_REQUIRE(run_cli({"summarize", "-q", dir, "-o", sum + "/a.tdsum.json"}).exit_code == 0);
  BOOST_TEST_REQUIRE(run_cli({"summarize", "-q", dir, "-o", sum + "/b.tdsum.json"}).exit_code == 0);
  const auto r = run_cli({"merge", sum + "/a.tdsum.json", sum + "/b.tdsum.json", "-o", sum + "/m.tdsum.json"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("is in two summaries, " + sum + "/a.tdsum.json (from ") != std::string::npos, r.err);
  BOOST_TEST(r.err.find(") and " + sum + "/b.tdsum.json (from ") != std::string::npos, r.err);
  BOOST_TEST(!fs::exists(sum + "/m.tdsum.json"));
}

BOOST_AUTO_TEST_SUITE_END()
