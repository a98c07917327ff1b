#pragma once
// What the HTML report shows of a comparison of any size: the rows its charts draw,
// and the bounded part of each long list it embeds (model::ChartRows,
// model::Embedded). Internal to analysis/; decide() and decide_hta() call it last.
//
// A page of 100,000 rows does not open (a browser lays out every row, again on each
// sort); one of 2,000 opens in about two seconds on a small machine. The bounds below,
// with the HTML writer's caps on each text it embeds, keep any report under 10 MB
// (tests/unit/html_writer_test.cpp builds the worst case and checks it).
#include <cstddef>

#include "model/report.hpp"

namespace tracediff::analysis::detail {

inline constexpr std::size_t k_embedded_rows = 2000;     // table rows
inline constexpr std::size_t k_embedded_launchers = 50;  // launching operators
inline constexpr std::size_t k_launcher_kernels = 25;    // kernels listed of each
inline constexpr std::size_t k_embedded_ranks = 200;     // rank rows
inline constexpr std::size_t k_chart_rows = 50;          // bars per chart (--top goes to 1,000)
inline constexpr std::size_t k_list_items = 50;          // items per top list
inline constexpr std::size_t k_group_names = 200;        // names per ops_diff group
inline constexpr std::size_t k_listed_files = 50;        // input files per side
inline constexpr std::size_t k_listed_samples = 50;      // diagnostic samples
inline constexpr std::size_t k_embedded_tree = 4000;     // call-tree nodes (the flame graph and its table)

// Fills report.charts (min(top, k_chart_rows) rows each) and report.embedded from the
// decided report: top lists, launchers, rank rows, impact order; the table's toggles and
// sparklines, the step chart and the per-step table.
void decide_embedded(model::DiffReport& report, std::size_t top);

}  // namespace tracediff::analysis::detail
