#pragma once
// The human summaries of a DiffReport: the terminal summary (stdout by default) and
// Markdown for a pull-request comment or $GITHUB_STEP_SUMMARY. Like every writer they
// read the report as it is: the headline, verdicts, top lists, notes and gate outcomes
// are decided in analysis.
//
//   tracediff: Control → Test
//   Per step (mean)              Control        Test           Δ        Δ%
//   Step time                    77.5 ms     87.0 ms    +9.50 ms    +12.3%  ▲
//   ...
//   Regressions (per step): top 10 of 24; 312 more within noise
//     aten::mm                   1.20 ms     1.38 ms     +180 µs    +15.0%  ▲
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "model/report.hpp"
#include "util/utf8.hpp"

namespace tracediff::output {

struct TerminalOptions {
  std::size_t width = 80;   // columns; no line is wider
  bool color = false;       // ANSI colours (the caller decides: TTY and no NO_COLOR)
  bool verbose = false;     // -v: every event accounted for, per side and file
};

// The headline (step time, GPU busy per step, CPU and GPU totals), the ops_diff group
// sizes and the top regressions and improvements, for a terminal.
void write_terminal_summary(const model::DiffReport& report, const TerminalOptions& options,
                            std::ostream& out);

struct MarkdownOptions {
  std::size_t max_bytes = 65000; // hard cap (a GitHub comment holds 65,536 characters)
  std::string report_url;        // --report-url: linked under the verdict (validated by cli: http or https)
};

// GitHub-flavoured Markdown: the verdict line (report.verdict_line), the commits and
// a link to the full report, headline, gate, group sizes, top regressions and
// improvements, added and deleted names, input problems. Never longer than
// options.max_bytes bytes whatever the input: tables are cut with "… N more rows".
// Every trace string is escaped, so names cannot break a table or inject HTML.
void write_markdown(const model::DiffReport& report, const MarkdownOptions& options, std::ostream& out);

namespace detail {
// Visible for testing and shared by the two writers.

// Text safe to print on a terminal: util/sanitize's display_safe (valid UTF-8,
// control characters such as escape sequences from trace names escaped visibly).
std::string terminal_safe(std::string_view s);
// Columns the text takes on a terminal, and the text elided to at most so many
// (util/utf8).
using tracediff::display_width;
using tracediff::elide_middle;

// "GPU A → B; World size 8 → 2": where the sides differ, in one line.
std::string sides_differ_text(const model::DiffReport& report);
// "Regressions (per step): top 10 of 24; 312 more within noise".
std::string top_heading(const char* title, const model::TopList& list, const model::DiffReport& report);
// "fired: step time +12.3% (...)": a --fail-on outcome in words.
std::string gate_line(const model::GateResult& result);
// --by-shape: "2.15 GFLOP/call, 45.2 → 90.1 TFLOP/s" for a row with FLOPs, else empty.
std::string flops_words(const model::DiffRow& row);
// A top list row's calls per step ("15 → 27", or "48" when equal) and the change of its
// time per call ("-9.0%"; empty when a side has no calls).
std::string calls_text(const model::DiffRow& row);
std::string per_call_text(const model::DiffRow& row);
// "mean +7.38 ms": the means' Δ, for a row whose shown Δ (the medians') it differs from
// much (DiffRow::Shown::mean_differs); else empty.
std::string mean_words(const model::DiffRow& row);
// Text outside code spans in Markdown, every markup character escaped and no mention
// or link left live (markdown_writer's rule; the trend's Markdown uses it too).
std::string markdown_text(std::string_view s);

}  // namespace detail

}  // namespace tracediff::output
