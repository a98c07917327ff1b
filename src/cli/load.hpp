#pragma once
// From the command line's inputs to a DiffReport: reads traces (summarising each on
// its reading thread in the default mode) and *.tdsum.json summaries.
#include <string>
#include <vector>

#include "analysis/summarize/summarize.hpp"
#include "cli/options.hpp"
#include "model/report.hpp"
#include "model/summary.hpp"
#include "reading/trace_set_reader.hpp"

namespace tracediff::cli {

// Every trace file of both sides (for the check that no output overwrites an input).
std::vector<std::string> input_files(const Options& options);

model::DiffReport load_and_compare(const Options& options, const reading::ReadProgressFn& progress);

// One side as a summary: its traces read and summarised, its summary files loaded.
// With a marker, its matches define the traces' steps (--step-marker).
model::SetSummary load_set_summary(const std::string& label, const std::vector<std::string>& inputs,
                                   unsigned threads, const reading::ReadProgressFn& progress,
                                   const analysis::SummarizeOptions& summarize = {},
                                   const std::vector<std::uint32_t>& input_runs = {},
                                   // Summaries read part by part (reading::read_summary_file): a comparison's
                                   // passes read each file's rows through model::WithRows.
                                   bool parts = false);

}  // namespace tracediff::cli
