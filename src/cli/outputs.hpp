#pragma once
// The comparison's outputs, one entry each in one table (the registry): its option, its
// default file, whether it needs the call tree, and its writer. The CLI (cli/run), the
// Python module's compare() and the docs' check all read the table: adding a format is
// a writer and one line here.
#include <optional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "model/report.hpp"
#include "util/atomic_file.hpp"

namespace tracediff::cli {

struct OutputFormat {
  const char* option;        // the long option, "csv" (--csv); its Python keyword is the same, "-" as "_"
  const char* default_file;  // written by default when no output is asked for; nullptr: only when asked
  bool needs_call_tree;      // the report must carry the call tree (paths, folded stacks)
  bool directory;            // the option names a directory of files (--folded)
  bool main_output;          // asked for, the default output is not written (--perfetto is a companion)
  std::optional<std::string> Options::*path;
  // The files it writes for PATH (one, or a directory's), and their writer.
  std::vector<std::string> (*files)(const std::string& path);
  void (*add)(OutputSet& out, const std::string& file, std::size_t k, const model::DiffReport& report,
              const Options& options);
};

// Every output of `tracediff CONTROL TEST`, in the order they are written.
const std::vector<OutputFormat>& output_formats();

// With no output asked for, the default ones (the HTML report).
void default_outputs(Options& options);

// Whether the outputs asked for need the call tree.
bool outputs_need_call_tree(const Options& options);

// Every file the options name, --folded's four files included ("-": standard output).
std::vector<std::string> output_paths(const Options& options);

// Before the read: --folded's directory made, the outputs distinct, each one writable
// and none an input (Fatal or UsageError otherwise).
void check_outputs(const Options& options, const std::vector<std::string>& input_files);

// Adds each asked-for output's writer to OUT. REPORT must outlive OUT's writes.
void add_outputs(OutputSet& out, const model::DiffReport& report, const Options& options);

}  // namespace tracediff::cli
