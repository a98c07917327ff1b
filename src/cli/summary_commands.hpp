#pragma once
// `tracediff summarize` and `tracediff merge`: argv starts at the subcommand's name.
#include <string>
#include <vector>

#include "analysis/summarize/summarize.hpp"

namespace CLI {
class App;
}

namespace tracediff::cli {

int run_summarize(int argc, const char* const* argv);
int run_merge(int argc, const char* const* argv);

// What CLI11 fills in for each command. The declare_* functions are the commands' option
// tables, as declare_compare_options is the comparison's (tools/cli-docs reads them all).
struct SummarizeArgs {
  std::vector<std::string> inputs;
  std::string out, label = "traces";
  unsigned threads = 0;
  bool quiet = false;
  analysis::SummarizeOptions summarize;
  std::string step_marker;
};
void declare_summarize_options(CLI::App& app, SummarizeArgs& args);

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
  bool quiet = false;
};
void declare_merge_options(CLI::App& app, MergeArgs& args);

}  // namespace tracediff::cli
