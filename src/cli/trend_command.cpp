// `tracediff trend`: the runs read one at a time per thread (cli/load's reading of a
// directory, trace or summary), each reduced at once to its points (analysis/trend),
// then the change points decided and the outputs written. Thin: wiring only.
#include "cli/trend_command.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "analysis/trend/series.hpp"
#include "analysis/trend/trend.hpp"
#include "cli/load.hpp"
#include "cli/options.hpp"
#include "cli/output_policy.hpp"
#include "cli/run.hpp"
#include "output/trend_writers.hpp"
#include "reading/summary_reader.hpp"
#include "reading/trace_set_reader.hpp"
#include "util/atomic_file.hpp"
#include "util/errors.hpp"
#include "util/sanitize.hpp"

namespace tracediff::cli {

namespace {

constexpr std::size_t k_max_runs = 100'000;
constexpr std::uintmax_t k_max_runs_file = std::uintmax_t{64} << 20;

std::string read_runs_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw Fatal("--runs-from " + path + ": not a regular file");
  if (std::filesystem::file_size(path, ec) > k_max_runs_file) throw Fatal("--runs-from " + path + ": larger than 64 MiB");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in && !in.eof()) throw Fatal("--runs-from " + path + ": cannot be read");
  return s.str();
}

}  // namespace

std::vector<RunEntry> parse_runs_from(const std::string& text, const std::string& base) {
  std::vector<RunEntry> out;
  std::size_t start = 0, line = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string l = text.substr(start, end - start);
    start = end + 1;
    ++line;
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (l.empty() || l[0] == '#') continue;
    RunEntry e;
    const auto tab = l.find('\t');
    e.path = l.substr(0, tab);
    if (tab != std::string::npos) e.label = l.substr(tab + 1);
    if (e.path.empty()) throw UsageError("--runs-from: line " + std::to_string(line) + " has no path");
    if (std::filesystem::path(e.path).is_relative() && !base.empty())
      e.path = (std::filesystem::path(base) / e.path).lexically_normal().string();
    if (out.size() >= k_max_runs) throw UsageError("--runs-from: more than 100,000 runs");
    out.push_back(std::move(e));
  }
  return out;
}

void declare_trend_options(CLI::App& app, TrendArgs& a) {
  app.name("tracediff trend");
  app.description("Follows figures over a series of runs in order (nightly runs, commits): each run's\n"
                  "headline figures, kernel families and rows per step, the change points in them\n"
                  "(docs/trend.md), and the first run after each change.");
  app.add_option("RUN", a.runs, "Runs, oldest first: directories of rank files, traces or *.tdsum.json")
      ->type_name("PATH");
  app.add_option("--runs-from", a.runs_from,
                 "Runs listed one a line, oldest first, after any RUN: PATH or PATH<TAB>LABEL (a\n"
                 "commit, a date); relative paths are relative to FILE")
      ->type_name("FILE");
  app.add_option("-o,--output", a.html, "HTML page (default tracediff-trend.html, unless only --json/--markdown)")
      ->type_name("FILE");
  app.add_option("--json", a.json, "The series and the changes as JSON ('-' = stdout)")->type_name("FILE");
  app.add_option("--markdown", a.markdown, "The newest run's verdict and the changes as Markdown ('-' = stdout)")
      ->type_name("FILE");
  app.add_option("--fail-on", a.fail_on,
                 "Exit 3 when a change of FIGURE falls on the newest run (repeatable):\n"
                 "'trend:step_time', 'trend:gpu_busy', 'trend:gemm' (a kernel family)")
      ->type_name("EXPR")->allow_extra_args(false)->take_all();
  app.add_option("--min-change", a.min_change,
                 "Changes smaller than this are none: a percentage (5%) or a duration (2us);\n"
                 "repeat to give both (default 5%)")
      ->type_name("X")->allow_extra_args(false);
  add_choice(app, "--launcher", a.launcher, launcher_levels(), true, "LEVEL",
             "The host event GPU time is attributed to, as the comparison's --launcher: runs'\n"
             "traces are read so, and their summaries must have been made so (default innermost)");
  app.add_option("-j,--threads", a.threads, "Runs read in parallel (default: one per core)")
      ->type_name("N")->check(CLI::Range(0u, k_max_threads));
  app.add_flag("-q,--quiet", a.quiet, "No warnings or messages on stderr");
}

int run_trend(int argc, const char* const* argv) {
  CLI::App app;
  TrendArgs a;
  declare_trend_options(app, a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return k_exit_ok;
  } catch (const CLI::ParseError& e) {
    throw_usage_error(app, e);
  }
  analysis::CompareOptions compare;
  for (const auto& m : a.min_change) parse_min_change(m, compare);
  std::vector<model::GateCondition> gate;
  for (const auto& f : a.fail_on) gate.push_back(analysis::parse_trend_condition(f));
  std::vector<RunEntry> runs;
  for (const auto& r : a.runs) runs.push_back({r, {}});
  if (!a.runs_from.empty()) {
    const auto listed = parse_runs_from(read_runs_file(a.runs_from),
                                        std::filesystem::path(a.runs_from).parent_path().string());
    runs.insert(runs.end(), listed.begin(), listed.end());
  }
  if (runs.size() < 2) throw UsageError("tracediff trend needs at least two runs (RUN... or --runs-from FILE)");
  if (runs.size() > k_max_runs) throw UsageError("tracediff trend: more than 100,000 runs");
  if (a.html.empty() && a.json.empty() && a.markdown.empty()) a.html = "tracediff-trend.html";
  std::vector<std::string> outputs;
  for (const auto* o : {&a.html, &a.json, &a.markdown})
    if (!o->empty()) outputs.push_back(*o);
  if (std::count(outputs.begin(), outputs.end(), "-") > 1) throw UsageError("only one output can go to stdout ('-')");

  prepare_standard_streams();
  check_outputs_distinct(outputs);
  {
    std::vector<std::string> paths;
    for (const auto& r : runs) paths.push_back(r.path);
    auto inputs = reading::find_trace_files(paths);
    inputs.insert(inputs.end(), paths.begin(), paths.end());
    for (const auto& out : outputs) check_output_path(out, inputs);
  }

  model::TrendReport report;
  for (const auto& r : runs) report.runs.push_back({r.path, r.label, 0, 0});
  analysis::SeriesBuilder builder(report);
  analysis::SummarizeOptions summarize;
  summarize.call_tree = false;  // no output of a trend shows paths
  summarize.launcher = a.launcher;
  // Runs in chunks, one run a thread: at most `threads` summaries held at once, and their
  // points merged in run order (the outputs do not depend on the threads).
  const unsigned threads = std::max(1u, a.threads ? a.threads : std::thread::hardware_concurrency());
  std::vector<analysis::RunPoints> chunk(threads);
  std::vector<std::string> errors(threads);
  std::size_t warnings = 0;
  for (std::size_t first = 0; first < runs.size(); first += threads) {
    const std::size_t n = std::min<std::size_t>(threads, runs.size() - first);
    std::atomic<std::size_t> warned{0};
    const auto work = [&](std::size_t k) {
      try {
        const auto& r = runs[first + k];
        auto set = load_set_summary(r.label.empty() ? "run " + std::to_string(first + k + 1) : r.label, {r.path}, 1,
                                    {}, summarize);
        for (auto& f : set.files) {  // a summary's call paths: no trend output shows them
          f.tree = {};
          f.tree_cells = {};
          f.tree_memory = {};
        }
        std::size_t w = set.diagnostics.samples().size();
        for (const auto& f : set.files) w += f.diagnostics.samples().size();
        warned += w;
        chunk[k] = analysis::reduce_run(set, compare);
      } catch (const std::exception& e) {
        errors[k] = runs[first + k].path + ": " + e.what();
      }
    };
    if (n == 1) {
      work(0);
    } else {
      std::vector<std::thread> pool;
      for (std::size_t k = 0; k < n; ++k) pool.emplace_back(work, k);
      for (auto& t : pool) t.join();
    }
    for (std::size_t k = 0; k < n; ++k)
      if (!errors[k].empty()) throw Fatal(errors[k]);
    for (std::size_t k = 0; k < n; ++k) {
      report.runs[first + k].units = chunk[k].units;
      report.runs[first + k].warmup = chunk[k].warmup;
      builder.add(first + k, chunk[k]);
      chunk[k] = {};
    }
    warnings += warned;
  }
  builder.finish();
  analysis::decide_trend(report, compare.noise_rule());
  analysis::evaluate_trend_gate(report, gate);

  OutputSet out;
  if (!a.html.empty()) out.add(a.html, [&](std::ostream& s) { output::write_trend_html(report, s); });
  if (!a.json.empty()) out.add(a.json, [&](std::ostream& s) { output::write_trend_json(report, s); });
  if (!a.markdown.empty()) out.add(a.markdown, [&](std::ostream& s) { output::write_trend_markdown(report, s); });
  out.write_files();
  out.write_stdout();
  bool fired = false;
  for (const auto& g : report.gate) {
    if (g.fired()) {
      std::cerr << "tracediff: fail-on: " << message_safe(g.condition.text + ": " + g.detail) << '\n';
      fired = true;
    } else if (g.outcome == model::GateOutcome::not_evaluated && !a.quiet) {
      std::cerr << "tracediff: warning: fail-on: " << message_safe(g.condition.text + ": not evaluated: " + g.detail) << '\n';
    }
  }
  if (!a.quiet) {
    if (warnings > 0)
      std::cerr << "tracediff: warning: the runs' files gave " << warnings
                << " warnings (compare two runs with `tracediff` to read them)\n";
    std::cerr << "tracediff: " << message_safe(report.verdict) << '\n';
  }
  return fired ? k_exit_gate : k_exit_ok;
}

}  // namespace tracediff::cli
