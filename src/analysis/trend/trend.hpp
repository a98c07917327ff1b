#pragma once
// `tracediff trend` decided once for every writer: the change points of every series,
// the rows that moved most, the newest run's verdict and the gate (docs/trend.md).
#include <string>
#include <string_view>
#include <vector>

#include "analysis/compare_options.hpp"
#include "model/trend_report.hpp"

namespace tracediff::analysis {

// Rows with sparklines in the page and lines in the Markdown, at most.
constexpr std::size_t k_trend_moved_rows = 20;

// Fills changes, each series' changes, moved and verdict from the series.
void decide_trend(model::TrendReport& report, const NoiseRule& rule);

// "trend:FIGURE" (a figure id such as step_time, or a kernel family's id): the series
// whose change on the newest run makes `tracediff trend` exit 3. Throws UsageError.
model::GateCondition parse_trend_condition(std::string_view text);

// Each condition's outcome on the report (report.gate, in the order given): fired
// when a change of its series falls on the newest run; not evaluated (with a warning's
// detail) when no series has that id.
void evaluate_trend_gate(model::TrendReport& report, const std::vector<model::GateCondition>& conditions);

// "run 17 (a1b2c3d)", or "run 17" without a label: how every view names a run.
std::string run_name(const model::TrendReport& report, std::size_t run);

}  // namespace tracediff::analysis
