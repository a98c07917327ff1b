// `tracediff trend` end to end on generated series (tracegen --series): a shift is
// found at the run where it was put (step time, and one kernel's row), A/A series give
// none, the gate fires on a change at the newest run only, hostile names and labels are
// escaped in every output, and the outputs are deterministic.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using namespace tracediff::test;
namespace json = boost::json;

namespace {

// Small runs: 1 rank, 8 steps, 2 layers, per-step jitter and a per-run offset.
std::string series(const std::string& tag, std::vector<std::string> extra) {
  std::vector<std::string> args = {"--ranks", "1", "--steps", "8", "--layers", "2", "--jitter", "2", "--run-offset", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return tracegen(tag, args);
}

json::object trend_json(const std::string& dir, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"trend", "--runs-from", dir + "/runs.tsv", "--json", "-", "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_cli(args);
  if (r.exit_code != 0 && r.exit_code != 3) throw std::runtime_error("tracediff trend failed: " + r.err);
  return parse_json(r.out).as_object();
}

const json::object* series_of(const json::object& t, const std::string& key, const std::string& value) {
  for (const auto& s : t.at("series").as_array())
    if (s.as_object().contains(key) && s.at(key).as_string() == value) return &s.as_object();
  return nullptr;
}

std::vector<std::int64_t> change_runs(const json::object& t, const json::object& s) {
  std::vector<std::int64_t> runs;
  for (const auto& i : s.at("changes").as_array())
    runs.push_back(t.at("changes").as_array().at(static_cast<std::size_t>(i.as_int64())).at("run").as_int64());
  return runs;
}

// Markdown without its code spans (what GitHub would read as markup).
std::string outside_code(const std::string& md) {
  std::string out;
  for (std::size_t i = 0; i < md.size();) {
    if (md[i] != '`') {
      out += md[i++];
      continue;
    }
    std::size_t k = 0;
    while (i + k < md.size() && md[i + k] == '`') ++k;
    const std::string fence(k, '`');
    const auto end = md.find(fence, i + k);
    i = end == std::string::npos ? md.size() : end + k;
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(trend)

BOOST_AUTO_TEST_CASE(step_time_shift_found_at_its_run) {
  for (const int at : {7, 13}) {
    const auto dir = series("trend-shift", {"--series", "20", "--shift-at", std::to_string(at), "--shift", "10"});
    const auto t = trend_json(dir);
    const auto* step = series_of(t, "id", "step_time");
    BOOST_TEST_REQUIRE(step != nullptr);
    BOOST_TEST(change_runs(t, *step) == std::vector<std::int64_t>{at}, "shift at " << at);
    // Every change the trend found began at that run: nothing before, nothing after.
    for (const auto& c : t.at("changes").as_array()) BOOST_TEST(c.at("run").as_int64() == at);
    // The verdict names the run and its label (runs.tsv's made-up hash).
    const auto& label = t.at("runs").as_array().at(static_cast<std::size_t>(at - 1)).at("label").as_string();
    BOOST_TEST(std::string(t.at("verdict").as_string()).find("since run " + std::to_string(at) + " (" + std::string(label) + ")") !=
               std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(a_kernels_row_shift_found_at_its_run) {
  const auto dir = series("trend-kernel", {"--series", "16", "--shift-at", "9", "--shift", "40", "--shift-name", "gemm"});
  const auto t = trend_json(dir);
  bool found = false;
  for (const auto& s : t.at("series").as_array()) {
    const auto& o = s.as_object();
    if (o.at("kind").as_string() != "row" || std::string(o.at("name").as_string()).find("gemm") == std::string::npos) continue;
    BOOST_TEST(change_runs(t, o) == std::vector<std::int64_t>{9}, o.at("name").as_string());
    found = true;
  }
  BOOST_TEST(found);
  const auto* gemm = series_of(t, "id", "gemm");
  BOOST_TEST_REQUIRE(gemm != nullptr);
  BOOST_TEST(change_runs(t, *gemm) == std::vector<std::int64_t>{9});
}

BOOST_AUTO_TEST_CASE(a_a_series_give_none) {
  for (const char* seed : {"1", "2", "3", "4"}) {
    const auto dir = series(std::string("trend-aa") + seed, {"--series", "20", "--seed", seed});
    const auto t = trend_json(dir);
    BOOST_TEST(t.at("changes").as_array().empty(), "seed " << seed << ": " << json::serialize(t.at("changes")));
    BOOST_TEST(t.at("series").as_array().size() > 20u);  // figures, families and rows were followed
  }
}

BOOST_AUTO_TEST_CASE(gate_on_the_newest_run) {
  const auto last = series("trend-last", {"--series", "12", "--shift-at", "12", "--shift", "10"});
  const auto fired = run_cli({"trend", "--runs-from", last + "/runs.tsv", "--json", "/dev/null", "--fail-on", "trend:step_time"});
  BOOST_TEST(fired.exit_code == 3, fired.err);
  BOOST_TEST(fired.err.find("fail-on: trend:step_time") != std::string::npos);
  const auto aa = series("trend-gate-aa", {"--series", "12"});
  const auto quiet = run_cli({"trend", "--runs-from", aa + "/runs.tsv", "--json", "/dev/null", "--fail-on", "trend:step_time"});
  BOOST_TEST(quiet.exit_code == 0, quiet.err);
  // A shift in the middle is no change at the newest run.
  const auto mid = series("trend-gate-mid", {"--series", "16", "--shift-at", "6", "--shift", "10"});
  BOOST_TEST(run_cli({"trend", "--runs-from", mid + "/runs.tsv", "--json", "/dev/null", "--fail-on", "trend:step_time", "-q"})
                 .exit_code == 0);
  // A figure no run has: a warning, not a silent pass; a malformed one: usage.
  const auto unknown = run_cli({"trend", "--runs-from", aa + "/runs.tsv", "--json", "/dev/null", "--fail-on", "trend:nope"});
  BOOST_TEST(unknown.exit_code == 0);
  BOOST_TEST(unknown.err.find("not evaluated") != std::string::npos);
  BOOST_TEST(run_cli({"trend", aa + "/run-001", aa + "/run-002", "--fail-on", "step_time>5%"}).exit_code == 2);
}

BOOST_AUTO_TEST_CASE(runs_as_summaries_read_as_traces) {
  const auto dir = series("trend-sum", {"--series", "8", "--shift-at", "5", "--shift", "10"});
  std::string list;
  for (int i = 1; i <= 8; ++i) {
    const std::string run = dir + "/run-00" + std::to_string(i);
    BOOST_TEST_REQUIRE(run_cli({"summarize", run, "-o", run + ".tdsum.json", "-q"}).exit_code == 0);
    list += "run-00" + std::to_string(i) + ".tdsum.json\n";
  }
  write_file(dir + "/sums.tsv", list);
  const auto a = run_cli({"trend", "--runs-from", dir + "/sums.tsv", "--json", "-", "-q"});
  std::vector<std::string> traces = {"trend"};
  for (int i = 1; i <= 8; ++i) traces.push_back(dir + "/run-00" + std::to_string(i));
  traces.insert(traces.end(), {"--json", "-", "-q"});
  const auto b = run_cli(traces);
  BOOST_TEST_REQUIRE(a.exit_code == 0);
  BOOST_TEST_REQUIRE(b.exit_code == 0);
  // The same series (paths and commands differ).
  BOOST_TEST(json::serialize(parse_json(a.out).at("series")) == json::serialize(parse_json(b.out).at("series")));
}

// Summaries made with --launcher outermost: trend takes the level as compare does, and
// without it says which option to give (trend once said "compare with --launcher").
BOOST_AUTO_TEST_CASE(runs_summarised_at_another_launcher_level) {
  const auto dir = series("trend-launcher", {"--series", "2"});
  std::vector<std::string> sums;
  for (int i = 1; i <= 2; ++i) {
    const std::string run = dir + "/run-00" + std::to_string(i);
    BOOST_TEST_REQUIRE(
        run_cli({"summarize", run, "--launcher", "outermost", "-o", run + ".tdsum.json", "-q"}).exit_code == 0);
    sums.push_back(run + ".tdsum.json");
  }
  const auto refused = run_cli({"trend", sums[0], sums[1], "--json", "-", "-q"});
  BOOST_TEST(refused.exit_code == 1);
  BOOST_TEST(refused.err.find("give this command --launcher outermost") != std::string::npos, refused.err);
  const auto taken = run_cli({"trend", sums[0], sums[1], "--launcher", "outermost", "--json", "-", "-q"});
  BOOST_TEST(taken.exit_code == 0, taken.err);
  // Traces beside them are read at the same level.
  const auto mixed = run_cli({"trend", sums[0], dir + "/run-002", "--launcher", "outermost", "--json", "-", "-q"});
  BOOST_TEST(mixed.exit_code == 0, mixed.err);
}

// Kernels renamed in every run (autotuned, hashed): a series per name grew with runs x
// names. Past 30 runs, rows seen in fewer than a tenth of the runs are summed into one
// series per category; the newest run's name keeps its own; the time is all there.
BOOST_AUTO_TEST_CASE(renamed_kernels_fold_into_one_series) {
  const auto dir = series("trend-renamed", {"--series", "40", "--renamed-kernel", "triton_poi_fused"});
  const auto t = trend_json(dir);
  const auto& method = t.at("method").as_object();
  BOOST_TEST(method.at("fold_min_runs").to_number<std::int64_t>() == 4);
  BOOST_TEST(method.at("folded_rows").to_number<std::int64_t>() == 39);  // one name a run, the newest kept
  std::size_t renamed = 0, folded = 0;
  for (const auto& sv : t.at("series").as_array()) {
    const auto& s = sv.as_object();
    if (s.at("kind").as_string() != "row") continue;
    const std::string name(s.at("name").as_string());
    if (name.starts_with("triton_poi_fused_")) {
      ++renamed;
      // Only in the newest run: 0 before it.
      const auto& m = s.at("median").as_array();
      BOOST_TEST(m.back().to_number<double>() > 0);
      BOOST_TEST(m.front().to_number<double>() == 0);
    }
    if (name.find("names seen in fewer than 4 runs") != std::string::npos) {
      ++folded;
      const auto& m = s.at("median").as_array();
      BOOST_TEST(m.size() == 40u);
      BOOST_TEST(m.front().to_number<double>() > 0);  // run 1's renamed kernel, summed here
      BOOST_TEST(m.back().to_number<double>() == 0);  // the newest's has its own series
      BOOST_TEST(name.starts_with("(39 names"), name);
    }
  }
  BOOST_TEST(renamed == 1u);
  BOOST_TEST(folded == 1u);
  // Every view says so.
  const auto md = run_cli({"trend", "--runs-from", dir + "/runs.tsv", "--markdown", "-", "-q"});
  BOOST_TEST(md.out.find("39 rows seen in fewer than 4 of the 40 runs") != std::string::npos, md.out);
  // Under 30 runs every row keeps its series.
  const auto few = series("trend-renamed-few", {"--series", "6", "--renamed-kernel", "triton_poi_fused"});
  const auto f = trend_json(few);
  BOOST_TEST(f.at("method").at("folded_rows").to_number<std::int64_t>() == 0);
}

BOOST_AUTO_TEST_CASE(hostile_names_and_labels_escaped) {
  const std::string name = "<script>alert(1)</script>|*_[x](http://e.io) @here `tick`";
  const auto dir = series("trend-hostile", {"--series", "12", "--shift-at", "7", "--shift", "40", "--shift-name",
                                            "hostile", "--add-kernel", "hostile" + name});
  // A label with markup, a newline escape and a bidi control.
  std::string list;
  for (int i = 1; i <= 12; ++i)
    list += "run-0" + std::string(i < 10 ? "0" : "") + std::to_string(i) + "\t<img src=x onerror=alert(2)>\xE2\x80\xAE" +
            std::to_string(i) + "\n";
  write_file(dir + "/hostile.tsv", list);
  const auto out = temp_dir("trend-hostile-out");
  const auto r = run_cli({"trend", "--runs-from", dir + "/hostile.tsv", "-o", out + "/t.html", "--markdown", out + "/t.md",
                          "--json", out + "/t.json", "-q"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto html = read_file(out + "/t.html");
  BOOST_TEST(html.find("<script>alert") == std::string::npos);
  BOOST_TEST(html.find("<img") == std::string::npos);
  BOOST_TEST(html.find("\xE2\x80\xAE") == std::string::npos);
  BOOST_TEST(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);  // shown, as text
  BOOST_TEST(html.find("<script") == std::string::npos);  // the page has no script at all
  BOOST_TEST(html.find("default-src &#39;none&#39;") != std::string::npos);  // the CSP, as an attribute
  const auto md = read_file(out + "/t.md");
  BOOST_TEST(md.find("\xE2\x80\xAE") == std::string::npos);
  auto text = outside_code(md);  // names and labels in code spans, or escaped ("\\<": a literal '<')
  for (auto at = text.find("\\<"); at != std::string::npos; at = text.find("\\<", at)) text.erase(at, 2);
  BOOST_TEST(text.find("<img") == std::string::npos);
  BOOST_TEST(text.find("<script>") == std::string::npos);
  BOOST_TEST(text.find("](http") == std::string::npos);
  BOOST_TEST(md.find("<script>alert(1)</script>") != std::string::npos);  // in a code span: shown as it is
  // The hostile kernel's change was found, and the JSON keeps the name as it is.
  const auto t = parse_json(read_file(out + "/t.json")).as_object();
  bool found = false;
  for (const auto& c : t.at("changes").as_array())
    if (c.as_object().contains("name") && std::string(c.at("name").as_string()).find(name) != std::string::npos)
      found = found || c.at("run").as_int64() == 7;
  BOOST_TEST(found);
}

BOOST_AUTO_TEST_CASE(outputs_are_deterministic) {
  const auto dir = series("trend-det", {"--series", "10", "--shift-at", "6", "--shift", "10"});
  const auto out = temp_dir("trend-det-out");
  for (const char* j : {"1", "3"}) {
    const auto r = run_cli({"trend", "--runs-from", dir + "/runs.tsv", "-j", j, "-o", out + "/t" + j + ".html", "--json",
                            out + "/t" + j + ".json", "--markdown", out + "/t" + j + ".md", "-q"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  }
  for (const char* ext : {".html", ".json", ".md"}) {
    BOOST_TEST(read_file(out + "/t1" + ext) == read_file(out + "/t3" + ext), ext);
    BOOST_TEST(!read_file(out + "/t1" + ext).empty());
  }
}

BOOST_AUTO_TEST_CASE(usage_errors) {
  BOOST_TEST(run_cli({"trend", "only-one"}).exit_code == 2);
  const auto dir = temp_dir("trend-usage");
  write_file(dir + "/runs.tsv", "\tlabel without a path\n");
  BOOST_TEST(run_cli({"trend", "--runs-from", dir + "/runs.tsv"}).exit_code == 2);
  BOOST_TEST(run_cli({"trend", "--runs-from", dir + "/missing.tsv"}).exit_code == 1);
}

BOOST_AUTO_TEST_SUITE_END()
