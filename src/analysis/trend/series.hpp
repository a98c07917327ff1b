#pragma once
// `tracediff trend`'s series: each run's SetSummary reduced at once to its points (the
// pairwise report's per-unit figures, kernel families and rows; the median over the
// run's step units and its p25-p75 band), so that a series of 1,000 runs never holds
// more than one run's summary per reading thread (docs/trend.md).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/compare_options.hpp"
#include "model/summary.hpp"
#include "model/trend_report.hpp"

namespace tracediff::analysis {

// One run's points: what add_run keeps of a SetSummary.
struct RunPoints {
  struct Point {
    model::SeriesKind kind = model::SeriesKind::figure;
    std::string id, label;
    bool bytes = false, headline = false;
    float value = 0, lo = 0, hi = 0;
  };
  std::vector<Point> points;
  std::size_t units = 0, warmup = 0;
};

// The pairwise comparison's reading of one run (its step units, warm-up left out as
// there, the figures, families and rows), reduced to points. OPTIONS: the device
// filter, categories, --short-names, --keep-warmup. Safe to call from several threads.
RunPoints reduce_run(const model::SetSummary& run, const CompareOptions& options);

// Collects the runs' points, in run order, into the report's series.
class SeriesBuilder {
 public:
  explicit SeriesBuilder(model::TrendReport& report) : m_report(report) {}
  // Appends run RUN (its TrendRun already in report.runs[index]).
  void add(std::size_t index, const RunPoints& run);
  // Makes the rows' series (folding rows seen in few runs, model::TrendReport::folded_rows)
  // and orders them: figures, families, rows.
  void finish();

 private:
  struct RowPoint {
    std::uint32_t run;
    float value, lo, hi;
  };
  struct SparseRow {
    std::string category, name;
    std::vector<RowPoint> points;  // by run
  };
  model::TrendReport& m_report;
  std::map<std::pair<int, std::string>, std::size_t> m_index;  // (kind, id + label) -> series
  // Rows are kept as their points until finish(): a name in one run of thousands costs
  // one point, not a value per run.
  std::map<std::string, std::size_t> m_row_index;
  std::vector<SparseRow> m_rows;
};

// Runs a row must be seen in to keep a series of its own (model::TrendReport::fold_min_runs):
// every row in a series of under 30 runs; past that a tenth of the runs.
std::size_t fold_min_runs(std::size_t runs);

// The quantile Q (0..1) of sorted values, interpolated (R's type 7); 0 for none.
double quantile(const std::vector<double>& sorted, double q);

}  // namespace tracediff::analysis
