#pragma once
// What the HTML report's views show, decided by analysis: the rows each chart draws
// (ChartRows) and the bounded part of each long list the page embeds (Embedded). Part of
// the report (model/report.hpp).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tracediff::model {

// The rows each chart of the HTML report draws, in chart order (indices into
// DiffReport::rows): the rows that moved most by calls, by time and (default mode)
// by self time, per step (totals with --hta-compat); never a ProfilerStep row.
struct ChartRows {
  std::vector<std::size_t> calls, time, self;
  // Each chart's labels, one per index above: distinct within the chart at the width of a
  // chart's axis (k_chart_label_chars; util/display_name's rule); and the kernel families
  // chart's, one per DiffReport::families_shown.
  std::vector<std::string> calls_labels, time_labels, self_labels, family_labels;
};
inline constexpr std::size_t k_chart_label_chars = 40;

// What the HTML report embeds of its long lists, so that it opens at any size: the
// most important part (by impact), every item the rest of the page links to among
// it, and how much was left out (the CSV and JSON have everything). Decided by
// analysis (analysis/decide/embedded.cpp); the HTML writer shows it and says what is missing.
struct Embedded {
  bool decided = false;                // false (a report built by hand): the page embeds everything
  std::vector<std::size_t> rows;       // the table: indices into rows, in impact order
  std::size_t rows_left_out = 0;
  std::vector<std::size_t> launchers;  // indices into by_launcher, in its order
  std::size_t launchers_left_out = 0;
  std::vector<std::size_t> rank_rows;  // indices into rank_rows, in its order
  std::size_t rank_rows_left_out = 0;
  std::vector<std::uint32_t> tree;     // call-tree nodes, in the tree's order: the heaviest, every
                                       // listed finding's path, and every ancestor of those
  std::size_t tree_left_out = 0;
  std::vector<std::uint32_t> tree_static;  // the static table's nodes (the page without JavaScript):
                                           // the top levels, a few children each, in the tree's order
  std::size_t list_items = 0;          // items shown of each top list (the rest count as more)
  std::size_t group_names = 0;         // names listed of each ops_diff group (the first, in row order)
  std::size_t files = 0;               // input files listed of each side
  std::size_t samples = 0;             // diagnostic samples listed
  std::size_t launcher_kernels = 0;    // kernels listed of each launcher (the rest count as more)

  // The table's filter toggles: its rows per change group, device and verdict (by enum value).
  std::array<std::size_t, 5> rows_per_change{};
  std::array<std::size_t, 3> rows_per_device{};
  std::array<std::size_t, 4> rows_per_verdict{};
  // Each table row's sparkline (parallel to rows): each side's inclusive time per step unit
  // (warm-up left out), at most k_spark_points, a longer run averaged over equal bins.
  std::vector<std::array<std::vector<double>, 2>> sparks;

  // The step chart: each side's steps in order (rank, then step; warm-up included), at most
  // k_step_chart_points, a longer run averaged over equal bins (warm: a warm-up step in it).
  struct StepPoint {
    double ns = 0;
    bool warm = false;
  };
  std::array<std::vector<StepPoint>, 2> step_chart;
  // The per-step table: each side's first k_step_rows steps in the same order, each a
  // warm-up step (index into SideSummary::warmup) or a compared one (into step_details);
  // and how many steps each side has.
  struct StepRef {
    bool warm = false;
    std::size_t index = 0;
  };
  std::array<std::vector<StepRef>, 2> step_rows;
  std::array<std::size_t, 2> steps_of{};
};
inline constexpr std::size_t k_spark_points = 20;
inline constexpr std::size_t k_step_chart_points = 200;
inline constexpr std::size_t k_step_rows = 100;

}  // namespace tracediff::model
