// The option table of the default command: every option declared once with CLI11
// (docs/cli.md, the man page and the completion are generated from it) and parsed into
// plain data: one thing, the table.
#include "cli/options.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <set>
#include <tuple>

#include "reading/number.hpp"
#include "util/errors.hpp"

namespace tracediff::cli {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto p = s.find(sep, start);
    parts.push_back(s.substr(start, p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  return parts;
}

std::int64_t number(const std::string& text, const std::string& what) {
  const auto v = reading::parse_integer(text);
  if (!v || *v < 0) throw UsageError(what + ": '" + text + "' is not a non-negative integer");
  return *v;
}

const char* k_description =
    "Compares two sets of PyTorch profiler (Kineto) traces: CONTROL (before a change) and TEST\n"
    "(after). Reports which CPU operators and GPU kernels were added or deleted, ran more or\n"
    "less often, and how much time each gained or lost.\n\n"
    "CONTROL and TEST are each a directory of traces (*.json, *.json.gz; one file per rank)\n"
    "or a trace file. Add more files to a side with --add-control / --add-test.";

const char* k_footer =
    "Commands (each has its own --help):\n"
    "  tracediff CONTROL TEST [options]          compare two sets (the options above)\n"
    "  tracediff summarize SET... -o FILE        read a set once into a *.tdsum.json summary,\n"
    "                                            usable as either side of a comparison\n"
    "  tracediff merge SUMMARY... -o FILE        combine summaries of disjoint ranks\n"
    "  tracediff trend RUN... -o FILE            follow a series of runs; find where changes began\n\n"
    "Exit status: 0 success (warnings included), 1 fatal error (missing path, a side without\n"
    "usable events, an output that cannot be written), 2 usage error (a malformed --fail-on\n"
    "included), 3 a --fail-on condition holds (the outputs are still written).\n\n"
    "Examples:\n"
    "  tracediff runs/before runs/after -o report.html\n"
    "  tracediff before/ after/ --csv - --device gpu --short-names\n"
    "  tracediff before/ after/ --hta-compat --control-rank 3 --test-rank 1 --csv hta.csv\n"
    "  tracediff main/ pr/ --markdown comment.md --fail-on 'step_time>+5%' --fail-on 'added>0'";

// Optimal string alignment distance: Levenshtein plus a swap of neighbours ("--lable").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// An argument that looks like an option: "-x", "--xy" (not "-" alone, nor a negative number).
bool looks_like_option(const std::string& arg) {
  return arg.size() > 1 && arg[0] == '-' && !std::isdigit(static_cast<unsigned char>(arg[1])) && arg[1] != '.';
}

}  // namespace

std::string closest_option(const CLI::App& app, std::string_view arg) {
  if (const auto eq = arg.find('='); eq != std::string_view::npos) arg = arg.substr(0, eq);
  // Past 64 characters an argument is no typo of a name (and the distance's table
  // stays small whatever is passed).
  if (arg.size() > 64 || arg.size() < 4) return {};  // "-x": every short option is one edit away
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional()) continue;
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  }
  for (const auto& name : names)  // "--hta" for --hta-compat (not --top, two edits away)
    if (name.starts_with(arg)) return name;
  std::string best;
  std::size_t best_distance = 1 + std::min<std::size_t>(2, arg.size() / 5);
  for (const auto& name : names) {
    const auto dist = edit_distance(arg, name);
    if (dist <= best_distance && dist > 0 && (best.empty() || dist < best_distance)) {
      best = name;
      best_distance = dist;
    }
  }
  return best;
}

void throw_usage_error(const CLI::App& app, const CLI::ParseError& error) {
  // An unknown option may also leave a positional missing or unexpected: it is the
  // cause, so it is said first.
  for (const auto& arg : app.remaining()) {
    if (arg == "--") break;  // what follows is a path, whatever it looks like
    if (!looks_like_option(arg)) continue;
    const auto name = arg.substr(0, arg.find('='));
    const auto suggestion = closest_option(app, arg);
    throw UsageError("unknown option '" + name + "'" +
                     (suggestion.empty() ? std::string() : "; did you mean " + suggestion + "?"));
  }
  throw UsageError(error.what());
}

std::vector<std::string> parse_categories(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string c = text.substr(start, end - start);
    while (!c.empty() && c.front() == ' ') c.erase(c.begin());
    while (!c.empty() && c.back() == ' ') c.pop_back();
    for (auto& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));  // as rows show them
    if (c.empty()) throw UsageError("--categories '" + text + "': an empty category");
    out.push_back(std::move(c));
    start = end + 1;
  }
  return out;
}

const std::map<std::string, analysis::LauncherLevel>& launcher_levels() {
  static const std::map<std::string, analysis::LauncherLevel> levels{
      {"innermost", analysis::LauncherLevel::innermost},
      {"outermost", analysis::LauncherLevel::outermost},
      {"module", analysis::LauncherLevel::module}};
  return levels;
}

template <typename T>
CLI::Option* add_choice(CLI::App& app, const std::string& name, T& to, const std::map<std::string, T>& values,
                        bool ignore_case, const std::string& type, const std::string& help) {
  std::vector<std::string> names;
  for (const auto& v : values) names.push_back(v.first);
  auto* option = app.add_option_function<std::string>(name, [&to, &values](const std::string& v) { to = values.at(v); }, help);
  // IsMember hands on the name as the set spells it.
  if (ignore_case) option->transform(CLI::IsMember(names, CLI::ignore_case));
  else option->transform(CLI::IsMember(names));
  return option->type_name(type);
}
template CLI::Option* add_choice(CLI::App&, const std::string&, analysis::LauncherLevel&,
                                 const std::map<std::string, analysis::LauncherLevel>&, bool, const std::string&,
                                 const std::string&);

namespace {

// A commit hash as CI systems give it: 7 to 64 hex digits (the first 7 kept).
std::optional<std::string> short_sha(const char* value) {
  if (value == nullptr) return std::nullopt;
  const std::string_view v(value);
  if (v.size() < 7 || v.size() > 64) return std::nullopt;
  for (char c : v)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return std::nullopt;
  return std::string(v.substr(0, 7));
}

}  // namespace

void default_labels_from_ci(Options& o, const char* (*getenv)(const char*)) {
  auto test = short_sha(getenv("GITHUB_SHA"));
  if (!test) test = short_sha(getenv("CI_COMMIT_SHORT_SHA"));
  const auto control = short_sha(getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA"));
  if (test && *test != o.label_control) o.label_test = *test;
  if (control && *control != o.label_test) o.label_control = *control;
}

void check_report_url(const std::string& url) {
  constexpr std::size_t k_max = 2000;
  if (url.size() > k_max) throw UsageError("--report-url: longer than 2,000 characters");
  std::string lower;
  for (char c : url.substr(0, 8)) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  const std::size_t host = lower.rfind("https://", 0) == 0 ? 8 : lower.rfind("http://", 0) == 0 ? 7 : 0;
  if (host == 0) throw UsageError("--report-url: only http:// and https:// URLs are linked");
  if (url.size() == host || url[host] == '/' || url[host] == '?' || url[host] == '#')
    throw UsageError("--report-url: no host after the scheme");
  for (unsigned char c : url)
    if (c <= 0x20 || c >= 0x7f)
      throw UsageError("--report-url: spaces, control characters and non-ASCII must be percent-encoded");
}

void parse_min_change(const std::string& text, analysis::CompareOptions& o) {
  // Longer suffixes first: "ms" and "ns" also end in "s".
  static const std::pair<std::string_view, double> units[] = {
      {"%", -1}, {"ns", 1e-3}, {"us", 1}, {"\u00b5s", 1}, {"ms", 1e3}, {"s", 1e6}};
  for (const auto& [suffix, scale] : units) {
    if (text.size() <= suffix.size() || !std::string_view(text).ends_with(suffix)) continue;
    const std::string_view number(text.data(), text.size() - suffix.size());
    // from_chars: no locale, no leading blanks or '+', no hex; "inf" and "nan" parse
    // and are refused below (an infinite threshold would silently judge nothing).
    double v = -1;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
    if (ec != std::errc() || end != number.data() + number.size() || !std::isfinite(v) || v < 0)
      throw UsageError("--min-change: '" + text + "' is not a finite non-negative number with a unit");
    if (scale < 0) {
      if (v > k_max_min_change_pct)
        throw UsageError("--min-change: '" + text + "' is more than 1,000,000%, which no change can reach");
      o.min_change.pct = v;
    } else {
      if (v * scale > k_max_min_change_us)
        throw UsageError("--min-change: '" + text + "' is longer than 1,000,000 s, far beyond any step");
      o.min_change.ns = v * scale * 1000.0;  // the one conversion: what the user wrote to ns
    }
    return;
  }
  throw UsageError("--min-change: '" + text + "' needs a unit: % or ns/us/ms/s");
}

std::optional<std::vector<int>> parse_rank_list(const std::string& text) {
  if (text == "all") return std::nullopt;
  std::vector<int> out;
  for (const auto& part : split(text, ',')) {
    const auto v = number(part, "rank list");
    if (v > (1 << 30)) throw UsageError("rank list: '" + part + "' is too large");
    out.push_back(static_cast<int>(v));
  }
  return out;
}

std::optional<std::vector<std::int64_t>> parse_iteration_list(const std::string& text) {
  if (text == "all") return std::nullopt;
  std::vector<std::int64_t> out;
  // Ranges are expanded: bounded in all, so that a list of long ranges cannot
  // allocate gigabytes (a profile holds thousands of steps, not millions).
  const auto too_many = [&] {
    return UsageError("step list: selects more than 1,000,000 steps; a profile holds far fewer");
  };
  for (const auto& part : split(text, ',')) {
    const auto dash = part.find('-', 1);
    if (dash == std::string::npos) {
      if (out.size() >= k_max_selected_steps) throw too_many();
      out.push_back(number(part, "step list"));
      continue;
    }
    const auto a = number(part.substr(0, dash), "step list");
    const auto b = number(part.substr(dash + 1), "step list");
    if (b < a) throw UsageError("step list: range '" + part + "' runs backwards");
    if (static_cast<std::uint64_t>(b - a) >= k_max_selected_steps - out.size()) throw too_many();
    // Counted, not compared with b: `i <= b` never fails when b is INT64_MAX.
    for (std::int64_t k = 0; k <= b - a; ++k) out.push_back(a + k);
  }
  return out;
}

void declare_compare_options(CLI::App& app, Options& o, CompareArgs& a) {
  app.name("tracediff");
  app.description(k_description);
  app.footer(k_footer);
  app.get_formatter()->column_width(34);
  app.set_version_flag("--version", "tracediff " TRACEDIFF_VERSION)->group("Other");

  app.add_option("CONTROL", a.control, "Traces before the change (directory or file)")
      ->type_name("PATH")->required();
  app.add_option("TEST", a.test, "Traces after the change (directory or file)")->type_name("PATH")->required();
  // allow_extra_args(false): one value per flag, so the positionals stay positionals.
  app.add_option("--add-control", a.add_control, "Another trace file or directory for CONTROL (repeatable)")
      ->type_name("PATH")->allow_extra_args(false)
      ->group("Inputs");
  app.add_option("--add-test", a.add_test, "Another trace file or directory for TEST (repeatable)")
      ->type_name("PATH")->allow_extra_args(false)
      ->group("Inputs");
  app.add_option("--control-run", a.control_run,
                 "Another run of CONTROL (repeatable): a directory of rank files, a trace or a summary;\n"
                 "changes are then judged between runs (docs/is-it-real.md: Several runs)")
      ->type_name("PATH")->allow_extra_args(false)
      ->group("Inputs");
  app.add_option("--test-run", a.test_run, "Another run of TEST (repeatable), as --control-run")
      ->type_name("PATH")->allow_extra_args(false)
      ->group("Inputs");
  app.add_flag("--runs", a.runs,
               "Each of CONTROL, TEST and every --add-control / --add-test path is one run of its side")
      ->group("Inputs");

  app.add_option("-o,--output", a.html,
                 "HTML report (default tracediff-report.html, unless only --csv/--json/--markdown are\n"
                 "asked for)")
      ->type_name("FILE")->group("Outputs");
  app.add_option("--csv", a.csv, "Diff table as CSV ('-' = stdout)")->type_name("FILE")->group("Outputs");
  app.add_option("--json", a.json, "Everything as JSON ('-' = stdout)")->type_name("FILE")->group("Outputs");
  app.add_flag("--json-full-tree", o.json_full_tree,
               "The JSON's whole call tree (default: the paths the HTML report shows, at most about\n"
               "4,000)")
      ->group("Outputs");
  app.add_option("--markdown", a.markdown, "Summary as Markdown, for a PR comment ('-' = stdout)")
      ->type_name("FILE")->group("Outputs");
  app.add_option("--perfetto", a.perfetto,
                 "Each side's median step as one Chrome-trace JSON for Perfetto and chrome://tracing\n"
                 "('-' = stdout; docs/perfetto.md)")
      ->type_name("FILE")->group("Outputs");
  app.add_flag("--embed-perfetto", o.embed_perfetto,
               "Embed that step file in the HTML report, with an 'Open in Perfetto' button that\n"
               "sends it to ui.perfetto.dev when clicked")
      ->group("Outputs");
  app.add_option("--folded", a.folded,
                 "Each side's call tree as folded stacks in DIR, µs per step, for flamegraph.pl,\n"
                 "difffolded.pl and speedscope: control.folded, test.folded (host time) and\n"
                 "control.gpu.folded, test.gpu.folded (GPU time by launching path)")
      ->type_name("DIR")->group("Outputs");
  app.add_option("--fail-on", a.fail_on,
                 "Exit 3 when EXPR holds (repeatable): 'step_time>+5%', 'op:aten::mm>+10%',\n"
                 "'kernel:*gemm*>+2ms', 'added>0' (docs/fail-on.md)")
      ->type_name("EXPR")->allow_extra_args(false)->group("CI")->take_all();
  app.add_option("--top", o.top, "Rows in each chart of the report, and in each top list of the summaries")
      ->type_name("N")->check(CLI::Range(1, 1000))->default_val(10)->group("Outputs");
  app.add_option("--label-control", o.label_control, "Display label of CONTROL")
      ->type_name("TEXT")->default_val("Control")->group("Outputs");
  app.add_option("--label-test", o.label_test, "Display label of TEST")->type_name("TEXT")->default_val("Test")->group("Outputs");
  app.add_option("--report-url", o.report_url,
                 "Link to the full report under the Markdown's verdict (http or https), e.g. the\n"
                 "CI run's artifacts")
      ->type_name("URL")->group("CI");
  app.add_flag("-q,--quiet", o.quiet, "No terminal summary, warnings or progress (they stay in the outputs)")->group("Outputs");
  app.add_flag("-v,--verbose", o.verbose,
               "The terminal summary adds every event's accounting: per side and file, how many host, GPU and memory "
               "events were read, went into rows, and were left out by reason")
      ->group("Outputs");
  static const std::map<std::string, ColorMode> color_modes{
      {"auto", ColorMode::automatic}, {"always", ColorMode::always}, {"never", ColorMode::never}};
  add_choice(app, "--color", o.color, color_modes, false, "WHEN",
             "Colours in the terminal summary: auto (when stdout is a terminal and NO_COLOR\n"
             "is unset), always or never")
      ->group("Outputs");

  app.add_option("--control-rank", a.control_rank, "Ranks of CONTROL: N | N,M | all (default all)")
      ->type_name("LIST")->group("Selection");
  app.add_option("--test-rank", a.test_rank, "Ranks of TEST: N | N,M | all (default all)")->type_name("LIST")->group("Selection");
  app.add_option("--control-iteration", a.control_iter,
                 "ProfilerSteps of CONTROL: N | N,M | A-B | all (default all)")
      ->type_name("LIST")->group("Selection");
  app.add_option("--test-iteration", a.test_iter, "ProfilerSteps of TEST: N | N,M | A-B | all (default all)")
      ->type_name("LIST")->group("Selection");
  app.add_option("--device", a.device, "cpu (host operators), gpu (kernels, memcpy, memset) or all")
      ->check(CLI::IsMember({"cpu", "gpu", "all"}))
      ->default_val("all")->group("Selection");
  app.add_flag("--short-names", o.compare.short_names,
               "Group by HTA's short names (template and argument lists stripped)")
      ->group("Selection");
  app.add_flag("--by-shape", o.compare.by_shape,
               "Key CPU operator rows by name and input shapes (args \"Input Dims\" and \"Input type\");\n"
               "matrix multiplications also show FLOPs and TFLOP/s")
      ->group("Selection");
  app.add_flag("--hta-compat", o.compare.hta_compat,
               "Reproduce HTA's TraceDiff numbers exactly, quirks included (default rank and step:\n"
               "the smallest of each side)")
      ->group("Selection");
  app.add_option("--categories", a.categories,
                 "Host categories that count as operators, e.g. cpu_op,cuda_runtime (default: every\n"
                 "host category; leave out python_function or user_annotation to hide Python frames\n"
                 "or annotations)")
      ->type_name("LIST")->group("Selection");
  app.add_flag("--keep-warmup", o.compare.keep_warmup,
               "Keep a first step far slower than the others (warm-up) in the comparison")
      ->group("Selection");
  add_choice(app, "--launcher", o.summarize.launcher, launcher_levels(), true, "LEVEL",
             "The host event GPU time is attributed to in the by-launcher view: innermost\n"
             "(cpu_op, default), outermost (cpu_op) or module (nn.Module frame, with_stack);\n"
             "a launch without an operator goes to its innermost annotation or Python frame")
      ->group("Selection");
  app.add_flag("--exact-names", a.exact_names,
               "Compare names as they are: no matching of Python frames across line numbers,\n"
               "CUDA and HIP calls, mangled kernels or vendors' operators")
      ->group("Selection");
  app.add_option("--step-marker", a.step_marker,
                 "Traces without ProfilerStep: host events whose names match REGEX (ECMAScript,\n"
                 "anywhere in the name) define the steps of both sides: spans that cover the work\n"
                 "are steps, short markers once per iteration bound them (docs/is-it-real.md: Step markers)")
      ->type_name("REGEX")->group("Selection");
  app.add_option("--control-step-marker", a.control_step_marker, "--step-marker for CONTROL only (wins over it)")
      ->type_name("REGEX")->group("Selection");
  app.add_option("--test-step-marker", a.test_step_marker, "--step-marker for TEST only (wins over it)")
      ->type_name("REGEX")->group("Selection");
  app.add_option("--min-change", a.min_change,
                 "Per-step changes smaller than this are 'same within noise': a percentage (5%)\n"
                 "or a duration (2us, 0.5ms); repeat to give both (default 5%)")
      ->type_name("X")->allow_extra_args(false)
      ->group("Selection");
  app.add_option("--critical-path-model", a.critical_path_model,
                 "What bounded each step (docs/critical-path.md): tracediff (default: HTA's model with\n"
                 "the host's waits for the GPU as edges) or hta (HTA's critical_path_analysis exactly)")
      ->check(CLI::IsMember({"tracediff", "hta"}))
      ->default_val("tracediff")->type_name("MODEL")->group("Critical path");
  app.add_option("--data-load-pattern", o.summarize.critical_path.data_load_pattern,
                 "Host time inside an operator whose name holds TEXT is data loading on the critical\n"
                 "path (default DataLoader; '' for none)")
      ->type_name("TEXT")->default_val("DataLoader")->group("Critical path");
  app.add_option("--what-if", a.what_if,
                 "Shorten work and find each step's critical path again (repeatable): 'aten::mm*0.8'\n"
                 "(a row 20 % faster), 'family:gemm*0.5', 'launch*0' (no launch delays), 'gaps*0'")
      ->type_name("WHAT*FACTOR")->allow_extra_args(false)->group("Critical path");
  app.add_flag("--no-critical-path", a.no_critical_path, "Skip the critical path (a few percent of the run's time)")
      ->group("Critical path");
  app.add_option("-j,--threads", o.threads, "Files read in parallel (default: one per core)")
      ->type_name("N")->check(CLI::Range(0u, k_max_threads))->group("Performance");
  app.get_help_ptr()->group("Other");

}

std::vector<OptionSpec> compare_option_specs() {
  CLI::App app;
  Options o;
  CompareArgs a;
  declare_compare_options(app, o, a);
  std::vector<OptionSpec> specs;
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->nonpositional() || opt == app.get_help_ptr() || opt == app.get_version_ptr()) continue;
    const auto& names = opt->get_lnames();
    if (names.empty()) continue;
    specs.push_back({names.front(), opt->get_expected_max() > 0, opt->get_expected_max() > 1});
  }
  return specs;
}

ParseOutcome parse_options(int argc, const char* const* argv, Options& o) {
  CLI::App app;
  CompareArgs a;
  declare_compare_options(app, o, a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return ParseOutcome::exit_ok;
  } catch (const CLI::CallForVersion&) {
    std::cout << "tracediff " TRACEDIFF_VERSION "\n";
    return ParseOutcome::exit_ok;
  } catch (const CLI::ParseError& e) {
    throw_usage_error(app, e);
  }

  o.compare.match_names = !a.exact_names;
  o.control_inputs = {a.control};
  o.control_inputs.insert(o.control_inputs.end(), a.add_control.begin(), a.add_control.end());
  o.test_inputs = {a.test};
  o.test_inputs.insert(o.test_inputs.end(), a.add_test.begin(), a.add_test.end());
  // Runs: with --runs every path is one; else the positional and --add-* paths are run 0
  // and each --*-run path one more.
  if (a.runs || !a.control_run.empty() || !a.test_run.empty()) {
    for (auto [inputs, runs, more] : {std::tuple{&o.control_inputs, &o.control_input_runs, &a.control_run},
                                      std::tuple{&o.test_inputs, &o.test_input_runs, &a.test_run}}) {
      for (std::size_t k = 0; k < inputs->size(); ++k) runs->push_back(a.runs ? static_cast<std::uint32_t>(k) : 0u);
      std::uint32_t next = runs->back() + 1;
      for (const auto& path : *more) inputs->push_back(path), runs->push_back(next++);
    }
  }
  if (!a.html.empty()) o.html = a.html;
  if (!a.csv.empty()) o.csv = a.csv;
  if (!a.json.empty()) o.json = a.json;
  if (o.json_full_tree && !o.json) throw UsageError("--json-full-tree: there is no --json output to write it to");
  if (!a.markdown.empty()) o.markdown = a.markdown;
  if (!a.perfetto.empty()) o.perfetto = a.perfetto;
  if (app.count("--folded") > 0) o.folded = a.folded;
  for (const auto& expr : a.fail_on) o.fail_on.push_back(analysis::parse_gate_condition(expr));
  const int to_stdout = (o.csv == "-") + (o.json == "-") + (o.html == "-") + (o.markdown == "-") + (o.perfetto == "-");
  if (to_stdout > 1) throw UsageError("only one output can go to stdout ('-')");
  if (app.count("--label-control") == 0 && app.count("--label-test") == 0)
    default_labels_from_ci(o, [](const char* name) -> const char* { return std::getenv(name); });
  if (o.label_control == o.label_test) throw UsageError("--label-control and --label-test must differ");
  if (app.count("--report-url") > 0) check_report_url(o.report_url);

  for (const auto& m : a.min_change) parse_min_change(m, o.compare);
  o.compare.top = o.top;
  if (!a.categories.empty()) o.compare.categories = parse_categories(a.categories);
  o.compare.device = a.device == "cpu"   ? analysis::DeviceFilter::cpu
                     : a.device == "gpu" ? analysis::DeviceFilter::gpu
                                       : analysis::DeviceFilter::all;
  auto ranks = [](const std::string& s) { return s == "default" ? std::nullopt : parse_rank_list(s); };
  auto iters = [](const std::string& s) { return s == "default" ? std::nullopt : parse_iteration_list(s); };
  o.compare.control.ranks = ranks(a.control_rank);
  o.compare.test.ranks = ranks(a.test_rank);
  o.compare.control.iterations = iters(a.control_iter);
  o.compare.test.iterations = iters(a.test_iter);
  // Compiled here, so that a bad pattern is a usage error before anything is read.
  for (auto [side, text, name] : {std::tuple{&o.compare.control, &a.control_step_marker, "--control-step-marker"},
                                  std::tuple{&o.compare.test, &a.test_step_marker, "--test-step-marker"}}) {
    const bool own = app.count(name) > 0;
    if (!own && app.count("--step-marker") == 0) continue;
    side->step_marker = std::make_shared<const analysis::StepMarker>(own ? *text : a.step_marker,
                                                                     own ? name : "--step-marker");
  }
  if (o.compare.hta_compat && (o.compare.control.step_marker || o.compare.test.step_marker))
    throw UsageError("--hta-compat takes steps from ProfilerStep, as HTA does; leave out the step marker");
  if (o.compare.hta_compat && (!o.control_input_runs.empty() || !o.test_input_runs.empty()))
    throw UsageError("--hta-compat compares one run a side, as HTA's TraceDiff does; leave out --runs, --control-run and --test-run");
  if (o.compare.hta_compat && o.compare.by_shape)
    throw UsageError("--by-shape and --hta-compat: HTA's TraceDiff keys rows by name alone");
  if (o.compare.hta_compat && (o.perfetto || o.embed_perfetto))
    throw UsageError("--perfetto and --embed-perfetto show the default mode's rows; leave out --hta-compat");
  if (o.embed_perfetto && a.html.empty() && (o.csv || o.json || o.markdown))
    throw UsageError("--embed-perfetto: there is no HTML report (-o) to embed the step in");
  if (o.compare.hta_compat && o.folded)
    throw UsageError("--folded writes the call tree, which --hta-compat does not make");
  if (o.folded && o.folded->empty()) throw UsageError("--folded: the directory's name is empty");
  o.summarize.by_shape = o.compare.by_shape;  // the traces are read with their shapes
  auto& cp = o.summarize.critical_path;
  cp.enabled = !a.no_critical_path && !o.compare.hta_compat;
  cp.hta_model = a.critical_path_model == "hta";
  o.compare.critical_path_model = a.critical_path_model;
  for (const auto& text : a.what_if) {
    std::string error;
    auto spec = analysis::parse_what_if(text, error);
    if (!spec) throw UsageError("--what-if " + error);
    cp.what_if.push_back(std::move(*spec));
  }
  if (!cp.enabled && !a.what_if.empty())
    throw UsageError(a.no_critical_path ? "--what-if needs the critical path; leave out --no-critical-path"
                                        : "--what-if: --hta-compat makes no critical path");
  // "all" differs from the default only in --hta-compat, whose default is one rank and one step.
  if (o.compare.hta_compat) {
    o.compare.control.all_ranks = a.control_rank == "all";
    o.compare.test.all_ranks = a.test_rank == "all";
    o.compare.control.all_iterations = a.control_iter == "all";
    o.compare.test.all_iterations = a.test_iter == "all";
  }
  return ParseOutcome::run;
}

}  // namespace tracediff::cli
