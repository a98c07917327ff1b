#pragma once
// The human summaries of a DiffReport: the terminal summary (stdout by default) and
// Markdown for a pull-request comment or $GITHUB_STEP_SUMMARY. Like every writer they
// read the report as it is: the top regressions and improvements are the rows of
// report.by_impact whose per-step Δ duration is positive (negative), in that order.
//
//   tracediff: Control → Test
//                                Control        Test           Δ        Δ%
//   Step time, mean              77.5 ms     87.0 ms    +9.50 ms    +12.3%
//   ...
//   Top 10 regressions (per step)
//   aten::mm                     1.20 ms     1.38 ms     +180 µs    +15.0%
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/gate.hpp"
#include "model/report.hpp"

namespace tracediff::output {

struct TerminalOptions {
  int top = 10;             // rows in each of the regressions and improvements tables
  std::size_t width = 80;   // columns; no line is wider
  bool color = false;       // ANSI colours (the caller decides: TTY and no NO_COLOR)
};

// The headline (step time, GPU busy per step, CPU and GPU totals), the ops_diff group
// sizes and the top regressions and improvements, for a terminal.
void write_terminal_summary(const model::DiffReport& report, const TerminalOptions& options,
                            std::ostream& out);

struct MarkdownOptions {
  int top = 10;                  // rows in each of the regressions and improvements tables
  std::size_t max_bytes = 65000; // hard cap (a GitHub comment holds 65,536 characters)
  // --fail-on outcomes, shown as a "Gate" section when not empty.
  std::vector<analysis::GateResult> gate;
};

// GitHub-flavoured Markdown: headline, gate, group sizes, top regressions and
// improvements, added and deleted names, input problems. Never longer than
// options.max_bytes bytes whatever the input: tables are cut with "… N more rows".
// Every trace string is escaped, so names cannot break a table or inject HTML.
void write_markdown(const model::DiffReport& report, const MarkdownOptions& options, std::ostream& out);

namespace detail {
// Visible for testing and shared by the two writers.

// Text safe to print on a terminal: valid UTF-8, control characters (C0, DEL, C1:
// escape sequences from trace names) replaced with '?'.
std::string terminal_safe(std::string_view s);
// Columns the (valid UTF-8) text takes on a terminal: wide East Asian characters 2.
std::size_t display_width(std::string_view s);
// At most max_width columns, the middle elided with "…" when wider.
std::string elide_middle(std::string_view s, std::size_t max_width);

// The Δ of a row that the summaries rank by: per step, or of the totals in --hta-compat.
double row_delta_ns(const model::DiffRow& row);
double row_control_ns(const model::DiffRow& row);
double row_test_ns(const model::DiffRow& row);

struct TopRows {
  std::vector<const model::DiffRow*> regressions, improvements;  // at most top each
  std::size_t regressions_total = 0, improvements_total = 0;
};
// Rows of report.by_impact with Δ > 0 (< 0), ProfilerStep rows left out (the step
// time is in the headline).
TopRows top_rows(const model::DiffReport& report, std::size_t top);
}  // namespace detail

}  // namespace tracediff::output
