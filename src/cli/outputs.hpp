#pragma once
// The report's outputs that the options ask for (-o, --csv, --json, --markdown,
// --perfetto, --folded): their paths, and one OutputSet that writes them all or none.
// The CLI and the Python module's compare() go through here.
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "model/report.hpp"
#include "util/atomic_file.hpp"

namespace tracediff::cli {

// Every file the options name, --folded's four files included ("-": standard output).
std::vector<std::string> output_paths(const Options& options);

// Before the read: --folded's directory made, the outputs distinct, each one writable
// and none an input (Fatal or UsageError otherwise).
void check_outputs(const Options& options, const std::vector<std::string>& input_files);

// Adds each asked-for output's writer to OUT. REPORT must outlive OUT's writes.
void add_outputs(OutputSet& out, const model::DiffReport& report, const Options& options);

}  // namespace tracediff::cli
