#pragma once
// `tracediff trend RUN... -o trend.html`: argv starts at the subcommand's name.
#include <string>
#include <vector>

#include "analysis/summarize/summarize.hpp"

namespace CLI {
class App;
}

namespace tracediff::cli {

int run_trend(int argc, const char* const* argv);

// What CLI11 fills in; declare_trend_options is the command's option table (tools/cli-docs
// reads it, as the other commands').
struct TrendArgs {
  std::vector<std::string> runs;
  std::string runs_from;
  std::string html, json, markdown;
  std::vector<std::string> fail_on, min_change;
  unsigned threads = 0;
  bool quiet = false;
  // --launcher: the level the runs' traces are read at, and that their summaries must
  // have been made with (a series of `summarize --launcher outermost` files needs it).
  analysis::LauncherLevel launcher = analysis::LauncherLevel::innermost;
};
void declare_trend_options(CLI::App& app, TrendArgs& args);

// One run of --runs-from: PATH, or PATH<TAB>LABEL; relative paths are relative to the file.
struct RunEntry {
  std::string path, label;
};
// Parses --runs-from's text (FILE's directory: `base`). Blank lines and lines starting
// with '#' are skipped. Throws UsageError.
std::vector<RunEntry> parse_runs_from(const std::string& text, const std::string& base);

}  // namespace tracediff::cli
