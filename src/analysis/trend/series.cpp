// Each run of a series reduced to its points by the pairwise comparison's own reading
// of a side (compare_summaries of the run against itself: the same step units, warm-up
// and figures a report of that run shows), then the points collected into series.
#include "analysis/trend/series.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/compare.hpp"
#include "analysis/decide/figures.hpp"
#include "analysis/decide/memory_figures.hpp"

namespace tracediff::analysis {

namespace {

constexpr float k_none = std::numeric_limits<float>::quiet_NaN();

RunPoints::Point point(model::SeriesKind kind, std::string id, std::string label, std::vector<double> v) {
  std::sort(v.begin(), v.end());
  RunPoints::Point p;
  p.kind = kind;
  p.id = std::move(id);
  p.label = std::move(label);
  p.value = static_cast<float>(quantile(v, 0.5));
  p.lo = static_cast<float>(quantile(v, 0.25));
  p.hi = static_cast<float>(quantile(v, 0.75));
  return p;
}

std::string series_key(model::SeriesKind kind, const std::string& id, const std::string& label) {
  return id + '\x1f' + label + '\x1f' + std::to_string(static_cast<int>(kind));
}

}  // namespace


double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto i = static_cast<std::size_t>(at);
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (at - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

RunPoints reduce_run(const model::SetSummary& run, const CompareOptions& options) {
  CompareOptions o = options;
  o.match_names = false;  // the run against itself: nothing to pair
  o.control = o.test = Selection{};
  const auto r = compare_summaries(run, run, o);
  RunPoints out;
  out.units = r.control.step_details.size();
  out.warmup = r.control.warmup.size();
  const auto in_headline = [&](const std::string& id) {
    return std::any_of(r.headline.begin(), r.headline.end(), [&](const model::Figure& f) { return f.id == id; });
  };
  // The breakdown holds the headline's step figures; the memory peaks are the headline's alone.
  for (const auto* list : {&r.breakdown, &r.headline})
    for (const auto& f : *list) {
      if (list == &r.headline &&
          std::any_of(r.breakdown.begin(), r.breakdown.end(), [&](const model::Figure& b) { return b.id == f.id; }))
        continue;
      auto v = detail::figure_samples(r.control, f.id);
      const bool bytes = v.empty();
      if (bytes) v = detail::memory_peak_samples(r.control, f.id);
      if (v.empty()) continue;
      auto p = point(model::SeriesKind::figure, f.id, f.label, std::move(v));
      p.bytes = bytes;
      p.headline = in_headline(f.id);
      out.points.push_back(std::move(p));
    }
  // A family's GPU time per unit: the sum of its rows' (as family_table judges it).
  for (const auto& fam : r.families) {
    std::vector<double> v(out.units, 0.0);
    for (const auto i : fam.rows)
      for (const auto& [u, x] : r.rows[i].control_samples.values())
        if (u < v.size()) v[u] += x;
    if (v.empty()) continue;
    out.points.push_back(point(model::SeriesKind::family, fam.id, fam.label, std::move(v)));
  }
  for (const auto& row : r.rows) {
    if (row.name.starts_with("ProfilerStep")) continue;  // the step itself: step_time says it
    auto v = row.control_samples.to_dense();
    if (v.empty()) continue;
    out.points.push_back(point(model::SeriesKind::row, row.category, row.name, std::move(v)));
  }
  return out;
}

std::size_t fold_min_runs(std::size_t runs) { return runs < 30 ? 1 : (runs + 9) / 10; }

namespace {

model::TrendSeries dense(model::SeriesKind kind, std::string id, std::string label, std::size_t n, float before) {
  model::TrendSeries s;
  s.kind = kind;
  s.id = std::move(id);
  s.label = std::move(label);
  s.value.assign(n, before);
  s.lo.assign(n, before);
  s.hi.assign(n, before);
  return s;
}

}  // namespace

void SeriesBuilder::add(std::size_t index, const RunPoints& run) {
  auto& series = m_report.series;
  const std::size_t n = m_report.runs.size();
  // A time figure this run's report left out was 0 there (a run without any, no steps: none).
  if (!run.points.empty())
    for (auto& s : series)
      if (s.kind != model::SeriesKind::row && !s.bytes) s.value[index] = s.lo[index] = s.hi[index] = 0.0f;
  for (const auto& p : run.points) {
    if (p.kind == model::SeriesKind::row) {
      const auto [it, fresh] = m_row_index.try_emplace(series_key(p.kind, p.id, p.label), m_rows.size());
      if (fresh) m_rows.push_back({p.id, p.label, {}});
      m_rows[it->second].points.push_back({static_cast<std::uint32_t>(index), p.value, p.lo, p.hi});
      continue;
    }
    const auto [it, fresh] = m_index.try_emplace({0, series_key(p.kind, p.id, p.label)}, series.size());
    if (fresh) {
      // Before its first run a time figure was 0 (the report leaves out figures that are
      // 0); a size (memory) had no value: no memory events.
      series.push_back(dense(p.kind, p.id, p.label, n, p.bytes ? k_none : 0.0f));
      series.back().bytes = p.bytes;
    }
    auto& s = series[it->second];
    s.headline |= p.headline;
    s.value[index] = p.value;
    s.lo[index] = p.lo;
    s.hi[index] = p.hi;
  }
}

void SeriesBuilder::finish() {
  auto& series = m_report.series;
  const std::size_t n = m_report.runs.size();
  // A row absent from a run took no time there: 0.
  const std::size_t min_runs = fold_min_runs(n);
  m_report.fold_min_runs = min_runs;
  std::map<std::string, std::size_t> folded_of;  // category -> its folded series
  std::map<std::string, std::size_t> folded_names;
  for (auto& row : m_rows) {
    // Runs are added in order, a row at most once a run: points.size() is its runs.
    const bool newest = !row.points.empty() && row.points.back().run + 1 == n;
    if (row.points.size() >= min_runs || newest) {
      auto s = dense(model::SeriesKind::row, std::move(row.category), std::move(row.name), n, 0.0f);
      for (const auto& p : row.points) s.value[p.run] = p.value, s.lo[p.run] = p.lo, s.hi[p.run] = p.hi;
      series.push_back(std::move(s));
    } else {
      const auto [it, fresh] = folded_of.try_emplace(row.category, series.size());
      if (fresh) series.push_back(dense(model::SeriesKind::row, row.category, {}, n, 0.0f));
      auto& s = series[it->second];
      // Medians do not add up; the folded series is the sum of its rows' medians, no band.
      for (const auto& p : row.points) s.value[p.run] += p.value, s.lo[p.run] = s.hi[p.run] = s.value[p.run];
      ++folded_names[row.category];
      ++m_report.folded_rows;
    }
    row.points = {};
  }
  for (const auto& [category, k] : folded_of)
    series[k].label = "(" + std::to_string(folded_names[category]) + " names seen in fewer than " +
                      std::to_string(min_runs) + " runs)";
  if (m_report.folded_rows)
    m_report.folded_note = std::to_string(m_report.folded_rows) + " rows seen in fewer than " + std::to_string(min_runs) +
                           " of the " + std::to_string(n) +
                           " runs (renamed or autotuned kernels) are summed into one series per category.";
  m_rows.clear();
  m_row_index.clear();
  const auto rank = [](model::SeriesKind k) { return static_cast<int>(k); };
  // Figures keep the breakdown's order of their first run; families and rows by id.
  std::stable_sort(series.begin(), series.end(), [&](const model::TrendSeries& a, const model::TrendSeries& b) {
    if (a.kind != b.kind) return rank(a.kind) < rank(b.kind);
    if (a.kind == model::SeriesKind::figure) return false;
    return a.id != b.id ? a.id < b.id : a.label < b.label;
  });
  m_index.clear();
}

}  // namespace tracediff::analysis
