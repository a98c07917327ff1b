#pragma once
// The command line, parsed into plain data. Parsing never touches the file system.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/gate/gate.hpp"
#include "analysis/summarize/summarize.hpp"

namespace CLI {
class App;
class Option;
class ParseError;
}  // namespace CLI

namespace tracediff::cli {

// --color: the terminal summary's colours. auto: when stdout is a terminal and NO_COLOR
// is unset or empty (and TERM is not "dumb").
enum class ColorMode { automatic, always, never };

struct Options {
  std::vector<std::string> control_inputs, test_inputs;
  // The run of each input (--control-run, --test-run, --runs), parallel to the inputs;
  // empty: the side is one run.
  std::vector<std::uint32_t> control_input_runs, test_input_runs;
  std::optional<std::string> html;      // -o; nullopt: default rule (see resolve_outputs)
  std::optional<std::string> csv, json;
  bool json_full_tree = false;                       // --json-full-tree: the JSON's whole call tree
  std::optional<std::string> markdown;               // --markdown FILE ('-' = stdout)
  std::optional<std::string> perfetto;               // --perfetto FILE: each side's median step (docs/perfetto.md)
  bool embed_perfetto = false;                       // --embed-perfetto: that step file in the HTML report
  std::optional<std::string> folded;                 // --folded DIR: control.folded, test.folded (+ .gpu)
  std::vector<analysis::GateCondition> fail_on;      // --fail-on, parsed (a bad one is a usage error)
  analysis::CompareOptions compare;
  analysis::SummarizeOptions summarize;
  std::string label_control = "Control", label_test = "Test";
  std::string report_url;   // --report-url: http(s) only, no control characters or spaces
  int top = 10;
  unsigned threads = 0;
  bool quiet = false;
  bool verbose = false;  // -v: the terminal summary adds every event's accounting
  ColorMode color = ColorMode::automatic;
};

enum class ParseOutcome { run, exit_ok };

// Bounds on option values: past them a value is a mistake (or an attack), refused
// with exit 2 before anything is read.
constexpr double k_max_min_change_pct = 1e6;    // --min-change: a 10,000-fold change
constexpr double k_max_min_change_us = 1e12;    // --min-change: 1,000,000 s
constexpr std::size_t k_max_selected_steps = 1'000'000;  // --*-iteration, all ranges together
constexpr unsigned k_max_threads = 1024;        // -j

// What CLI11 fills in before parse_options turns it into Options (lists and names checked
// after parsing, so that every error names its option).
struct CompareArgs {
  std::string control, test;
  std::vector<std::string> add_control, add_test;
  std::vector<std::string> control_run, test_run;  // --control-run, --test-run
  bool runs = false;                               // --runs
  std::string html, csv, json, markdown, perfetto;
  std::string folded;
  std::vector<std::string> fail_on;
  std::string control_rank = "default", test_rank = "default";
  std::string control_iter = "default", test_iter = "default";
  std::string device = "all";
  std::string categories;
  bool exact_names = false;
  std::string step_marker, control_step_marker, test_step_marker;
  std::vector<std::string> min_change;
  std::string critical_path_model = "tracediff";  // --critical-path-model
  std::vector<std::string> what_if;               // --what-if
  bool no_critical_path = false;
};

// The option table of `tracediff CONTROL TEST`: the one place its options are declared.
// --help, and the man page, bash completion and docs/cli.md that tools/cli-docs generates,
// are all read from it. Each option's value name (type_name) says what it takes: FILE
// and PATH are completed as file names, a validator's {a,b,c} as those words.
void declare_compare_options(CLI::App& app, Options& options, CompareArgs& args);

// Throws UsageError on a bad command line; returns exit_ok after --help/--version
// (printed to stdout).
ParseOutcome parse_options(int argc, const char* const* argv, Options& options);

// The option of APP closest to ARG ("--devic" -> "--device"; "--devic=gpu" too), for a
// "did you mean"; empty when none is close: the first name that ARG begins, else the
// nearest by Damerau-Levenshtein distance, at most 1 + length/5 edits (3 at most).
std::string closest_option(const CLI::App& app, std::string_view arg);

// CLI11's parse error as a UsageError; an unknown option is named first, with the
// closest known one ("unknown option '--devic'; did you mean --device?").
[[noreturn]] void throw_usage_error(const CLI::App& app, const CLI::ParseError& error);

// --launcher's values, for both commands that summarise.
const std::map<std::string, analysis::LauncherLevel>& launcher_levels();

// An option whose value is a name from `values` (any case when ignore_case), stored in
// `to` as the map gives it; --help shows TYPE:{a,b,c}. (CLI11's own transformers into an
// enum print the enum's values, small integers, as raw bytes in --help and errors.)
template <typename T>
CLI::Option* add_choice(CLI::App& app, const std::string& name, T& to, const std::map<std::string, T>& values,
                        bool ignore_case, const std::string& type, const std::string& help);

// Labels from the CI's commit when no --label-* is given: TEST from GITHUB_SHA (its
// first 7 characters) or CI_COMMIT_SHORT_SHA, CONTROL from
// CI_MERGE_REQUEST_DIFF_BASE_SHA (GitLab). Values that are not a plain hash are
// ignored. getenv is a parameter so that tests need no environment.
void default_labels_from_ci(Options& options, const char* (*getenv)(const char*));

// --report-url: http:// or https:// with a host, printable ASCII only, at most 2,000
// characters. Throws UsageError.
void check_report_url(const std::string& url);

// "5%" sets the relative threshold, "2us"/"0.5ms"/... the absolute one. Throws UsageError.
void parse_min_change(const std::string& text, analysis::CompareOptions& options);

// "cpu_op, cuda_runtime" -> {"cpu_op", "cuda_runtime"} (lower case, as rows show categories).
std::vector<std::string> parse_categories(const std::string& text);

// "N", "N,M", "all" -> ranks (nullopt for all). Throws UsageError.
std::optional<std::vector<int>> parse_rank_list(const std::string& text);
// "N", "N,M", "A-B", "all" and mixes ("1,3-5") -> steps (nullopt for all).
std::optional<std::vector<std::int64_t>> parse_iteration_list(const std::string& text);

// An option of that table as the Python module's compare() takes it by keyword
// (docs/python.md): its long name, whether it takes a value, whether it may be given
// more than once. --help and --version are left out: they compare nothing.
struct OptionSpec {
  std::string name;  // "control-rank": the long name without "--"
  bool takes_value = false;
  bool repeats = false;
};
std::vector<OptionSpec> compare_option_specs();

}  // namespace tracediff::cli
