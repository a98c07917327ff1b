// Each run of a series reduced to its points by the pairwise comparison's own reading
// of a side (compare_summaries of the run against itself: the same step units, warm-up
// and figures a report of that run shows), then the points collected into series.
#include "analysis/trend/series.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/compare.hpp"
#include "analysis/decide/figures.hpp"
#include "analysis/decide/memory.hpp"

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

void SeriesBuilder::add(std::size_t index, const RunPoints& run) {
  auto& series = m_report.series;
  const std::size_t n = m_report.runs.size();
  // A time figure this run's report left out was 0 there (a run without any, no steps: none).
  if (!run.points.empty())
    for (auto& s : series)
      if (s.kind != model::SeriesKind::row && !s.bytes) s.value[index] = s.lo[index] = s.hi[index] = 0.0f;
  for (const auto& p : run.points) {
    const auto [it, fresh] = m_index.try_emplace({0, series_key(p.kind, p.id, p.label)}, series.size());
    if (fresh) {
      model::TrendSeries s;
      s.kind = p.kind;
      s.id = p.id;
      s.label = p.label;
      s.bytes = p.bytes;
      // Before its first run a row took no time, and a time figure was 0 (the report leaves
      // out figures that are 0); a size (memory) had no value: no memory events.
      const float before = p.bytes ? k_none : 0.0f;
      s.value.assign(n, before);
      s.lo.assign(n, before);
      s.hi.assign(n, before);
      series.push_back(std::move(s));
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
